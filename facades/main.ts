import 'reflect-metadata';
import { loadConfigOrExit } from '../src/platform/config.js';
import { createLogger } from '../src/platform/logger.js';
import { exitOnUnhandledErrors } from '../src/platform/process-guards.js';
import { announceReady } from '../src/platform/ready-signal.js';
import { createDomainRuntime } from '../schema/domain-runtime.js';
import { buildServer } from './server.js';

/** The API process: REST surfaces, GraphQL, better-auth and ops endpoints. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.LOG_LEVEL, name: 'api' });
  // An error no handler caught: one fatal line, exit 1, and `seo start`/`seo serve` start a fresh API process.
  const fatal = exitOnUnhandledErrors(logger, 'API');
  if (config.usingDevSecret)
    logger.warn('BETTER_AUTH_SECRET is not set: using the development secret (never do this in production)');
  const runtime = await createDomainRuntime(config, logger);
  const app = await buildServer(runtime);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 15_000).unref();
    await app.close().catch((err) => logger.error({ err }, 'error while closing HTTP server'));
    await runtime.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => {
    shutdown('SIGTERM').catch(fatal('API shutdown failed'));
  });
  process.on('SIGINT', () => {
    shutdown('SIGINT').catch(fatal('API shutdown failed'));
  });
  await app.listen({ host: config.HOST, port: config.PORT });
  logger.info({ url: config.baseUrl }, 'API listening');
  announceReady(config.baseUrl);
}

main().catch((err) => {
  console.error('API failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
