import { pino, type Logger, type DestinationStream } from 'pino';

/** Paths that never reach a log line: credentials travel in these. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.apiKey',
  '*.key',
  '*.token',
  '*.secret',
  '*.SERP_API_KEY',
  '*.SERP_PASSWORD',
  '*.LLM_API_KEY',
];

export function createLogger(opts: { level: string; name?: string }, destination?: DestinationStream): Logger {
  return pino(
    {
      level: opts.level,
      name: opts.name,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      base: { pid: process.pid },
    },
    destination,
  );
}

export type { Logger };
