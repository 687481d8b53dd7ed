import 'reflect-metadata';
import { isMainModule } from '../src/platform/main-module.js';
import type { ApiProcessOptions } from '../src/platform/api-in-process.js';
import { loadConfigOrExit } from '../src/platform/config.js';
import { createLogger } from '../src/platform/logger.js';
import { exitOnUnhandledErrors } from '../src/platform/process-guards.js';
import { announceReady } from '../src/platform/ready-signal.js';
import { trimHeapAfterStart } from '../src/platform/startup-heap-trim.js';
import { createDomainRuntime } from '../schema/domain-runtime.js';
import { buildServer } from './server.js';

/**
 * The API process: REST surfaces, GraphQL, better-auth and ops endpoints. Started as its own process (`seo serve`,
 * or a supervisor's child) it runs itself; `seo start` loads it and calls it with the worker group as companions
 * (src/platform/api-in-process.ts): a signal then stops the API, then the workers, and the process exits with the
 * group's code; the group stopping on its own (a worker that cannot run) stops the API with the group's code.
 */
export async function runApiProcess(options: ApiProcessOptions = {}): Promise<void> {
  const { companions } = options;
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'api' });
  // An error no handler caught: one fatal line, exit 1, and `seo serve` starts a fresh API process (under `seo
  // start`, the exit stops the workers too: see below).
  const fatal = exitOnUnhandledErrors(logger, 'API');
  // However this process ends, its companions get SIGTERM and finish their jobs on their own.
  if (companions) process.on('exit', () => companions.stop('SIGTERM'));
  if (config.usingDevSecret)
    logger.warn('BETTER_AUTH_SECRET is not set: using the development secret (never do this in production)');
  const runtime = await createDomainRuntime(config, logger);
  const app = await buildServer(runtime);
  let closing = false;
  const shutdown = async (signal: string, code = 0) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 15_000).unref();
    await app.close().catch((err) => logger.error({ err }, 'error while closing HTTP server'));
    await runtime.close();
    clearTimeout(timer);
    if (companions) {
      // The workers' own deadline (the supervisor kills a child still alive after 30 s) bounds this wait.
      companions.stop(signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
      code = Math.max(code, await companions.done);
    }
    process.exit(code);
  };
  process.on('SIGTERM', () => {
    shutdown('SIGTERM').catch(fatal('API shutdown failed'));
  });
  process.on('SIGINT', () => {
    shutdown('SIGINT').catch(fatal('API shutdown failed'));
  });
  void companions?.done.then((code) => shutdown('workers stopped', code).catch(fatal('API shutdown failed')));
  await app.listen({ host: config.HOST, port: config.PORT });
  logger.info({ url: config.baseUrl }, 'API listening');
  announceReady(config.baseUrl);
  trimHeapAfterStart(logger);
  options.onListening?.(config.baseUrl);
}

if (isMainModule(import.meta.url)) {
  runApiProcess().catch((err) => {
    console.error('API failed to start:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
