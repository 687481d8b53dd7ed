import {
  pino,
  type Bindings,
  type ChildLoggerOptions,
  type Logger,
  type DestinationStream,
  type LevelWithSilent,
} from 'pino';

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
  '*.SMTP_URL',
  // Crawl logins (src/crawler/crawl-login*): the opened secrets, their sealed box and each write-only field.
  '*.secrets',
  '*.sealed',
  '*.username',
  '*.headers.cookie',
  '*.headers.authorization',
  '*.headerValue',
  '*.cookies',
  '*.cookie',
  '*.extraFields',
  '*.CRAWL_SECRET_KEY',
];

/** Query parameters whose values are credentials (`?api_key=`, `?token=`, `?password=`, `?code=`…). */
const SECRET_QUERY = new RegExp(
  String.raw`([?&;](?:[\w.-]*(?:token|secret|passw|pwd|signature|credential|` +
    String.raw`session|auth|apikey|api_key|api-key)[\w.-]*|key|code|sig)=)[^&;#\s"'\\]*`,
  'gi',
);
/** Path segments that are tokens (better-auth's /reset-password/:token). */
const SECRET_PATH = /(\/(?:reset-password|verify-email|magic-link|callback)\/)[^/?#\s"'\\]+/gi;

/**
 * Removes credentials from a URL or from text that quotes one (an error message naming the request URL): a key
 * or token put in the query string or the path would otherwise be logged with every request.
 */
export function redactUrlSecrets(text: string): string {
  if (!text.includes('=') && !text.includes('/')) return text;
  return text.replace(SECRET_QUERY, '$1[REDACTED]').replace(SECRET_PATH, '$1[REDACTED]');
}

interface RequestLike {
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer (same fields), with the URL's credentials removed. */
const serializers = {
  req: (req: RequestLike) => ({
    method: req.method,
    url: typeof req.url === 'string' ? redactUrlSecrets(req.url) : req.url,
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
  err: (err: Error) => {
    const out = pino.stdSerializers.err(err);
    if (typeof out.message === 'string') out.message = redactUrlSecrets(out.message);
    if (typeof out.stack === 'string') out.stack = redactUrlSecrets(out.stack);
    return out;
  },
};

export function createLogger(opts: { level: string; name?: string }, destination?: DestinationStream): Logger {
  return pino(
    {
      level: opts.level,
      name: opts.name,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      // Fastify adopts these over its own (its loggerInstance serializers win).
      serializers,
      // Messages too: Fastify's own warnings quote the request URL ("… in "/x?api_key=…" (GET)").
      hooks: {
        logMethod(args, method) {
          for (let i = 0; i < args.length; i++)
            if (typeof args[i] === 'string') args[i] = redactUrlSecrets(args[i] as string);
          // An error logged without a message lends pino its own message: pass it, redacted, instead.
          const first = args[0] as { err?: unknown } | null | undefined;
          if (args.length === 1 && first && typeof first === 'object') {
            const err = first instanceof Error ? first : first.err instanceof Error ? first.err : null;
            if (err) args.push(redactUrlSecrets(err.message));
          }
          return method.apply(this, args);
        },
      },
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
    return this.real
      ? this.real.isLevelEnabled(level)
      : this.options?.level === undefined
        ? this.parent.isLevelEnabled(level)
        : this.logger.isLevelEnabled(level);
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
