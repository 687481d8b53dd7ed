import { pino, type Bindings, type ChildLoggerOptions, type Logger, type DestinationStream, type LevelWithSilent } from 'pino';

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

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made a real pino child (with its bindings serialized and redaction set up) only when the
 * request first logs at an enabled level. At the default level every request logs, so this changes nothing
 * there; below it (warn, error, silent) no request pays for a child it never writes to.
 */
export class LazyChildLogger {
  private real: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options?: ChildLoggerOptions,
  ) {}

  private get logger(): Logger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LevelWithSilent | string {
    return this.real?.level ?? this.options?.level ?? this.parent.level;
  }

  set level(level: LevelWithSilent | string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.real ? this.real.isLevelEnabled(level) : this.options?.level === undefined ? this.parent.isLevelEnabled(level) : this.logger.isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  private write(level: LogMethod, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.logger[level] as (...a: unknown[]) => void)(...args);
  }
}

export type { Logger };

