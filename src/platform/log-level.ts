/** The levels LOG_LEVEL accepts (pino's, and `silent`), without the configuration schema. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

/**
 * LOG_LEVEL for a process that does not load the configuration (the supervisor of `seo start`): the default when
 * unset or invalid. The configuration check of the children reports an invalid value.
 */
export function logLevelOf(env: NodeJS.ProcessEnv): LogLevel {
  const value = env.LOG_LEVEL;
  return (LOG_LEVELS as readonly string[]).includes(value ?? '') ? (value as LogLevel) : DEFAULT_LOG_LEVEL;
}
