import type { Logger } from './logger.js';

/**
 * Exit code of a process that stopped on an error nothing handled: its supervisor starts it again (1 s backoff),
 * or, for `seo start`'s API, which has none, the service manager does.
 */
export const FATAL_EXIT_CODE = 1;

/**
 * What a long-running process (API, worker) does with an error that escaped every handler, as BullMQ's
 * production guide and Node's documentation advise: the process is in an unknown state, so it logs one
 * structured line (level fatal, `kind`, the error) and exits; its supervisor (`seo worker`, `seo serve`, or for a
 * worker `seo start`'s API) starts a fresh one (a worker's job lock then expires and the job is resumed elsewhere).
 * Returns the handler, for the process's own fatal paths (a failed start or shutdown).
 */
export function exitOnUnhandledErrors(logger: Logger, role: string): (kind: string) => (err: unknown) => void {
  let exiting = false;
  const fatal = (kind: string) => (err: unknown) => {
    logger.fatal({ err, kind }, `${kind}: the ${role} exits to be started afresh`);
    if (exiting) return;
    exiting = true;
    process.exitCode = FATAL_EXIT_CODE;
    logger.flush?.();
    // A moment for the line to leave (pino writes stdout synchronously; a file or pipe destination may not).
    setTimeout(() => process.exit(FATAL_EXIT_CODE), 50);
  };
  process.on('unhandledRejection', fatal('unhandled promise rejection'));
  process.on('uncaughtException', fatal('uncaught exception'));
  return fatal;
}
