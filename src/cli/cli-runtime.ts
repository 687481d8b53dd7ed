import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from '../platform/config.js';
import type { Principal } from '../platform/context.js';
import type { MikroORM } from '../platform/db/orm.js';

/**
 * The heavier modules load in the commands that use them (dynamic imports), so that `seo start`, which stays up
 * as the supervisor of the platform's processes, holds commander, the logger and the supervisor only: about 50 MB
 * less resident memory than with every module of the platform loaded (npm run bench -- memory). The supervisor
 * does not validate the configuration (zod alone costs ~10 MB): its children do, and one that finds it invalid
 * exits with code 2, which stops the group with that code and the child's message.
 */
export const lazy = {
  config: () => import('../platform/config.js'),
  db: () => import('../platform/db/native-query.js'),
  logger: () => import('../platform/logger.js'),
  orm: () => import('../platform/db/orm.js'),
  migrations: () => import('../platform/db/migrations/index.js'),
  identity: () => import('../identity/index.js'),
  audits: () => import('../audits/index.js'),
  crawler: () => import('../crawler/index.js'),
  projects: () => import('../projects/index.js'),
  technical: () => import('../technical/index.js'),
  safeHttp: () => import('../platform/safe-http/index.js'),
  ciGate: () => import('../seo/ci-gate/index.js'),
  scoring: () => import('../seo/scoring/index.js'),
};

/** What the entry point (src/cli.ts) gives the commands: itself, and what lives at the root of src/. */
export interface CliRoot {
  /** The entry's file (src/cli.ts under tsx, dist/src/cli.js when built): `start` runs `seo migrate` with it. */
  entryFile: string;
  /** Every MikroORM entity (src/entities.ts), loaded by the commands that open the ORM. */
  entities: () => Promise<typeof import('../entities.js')>;
}

export const config = async (): Promise<AppConfig> => (await lazy.config()).loadConfigOrExit();

/** Exit codes, documented in --help and docs/cli-and-ci-gate.md. */
export const EXIT = { ok: 0, gate: 1, failed: 2 } as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  the --fail-under gate tripped (the score is below the threshold), or a --fail-on rule did (against --baseline)
  2  the audit failed, or bad usage (unknown option, invalid value, a --baseline that cannot be compared with)`;

export function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The package's version, read from package.json above this file (src/cli/ under tsx, dist/src/cli/ when built). */
export function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = resolve(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) return 'unknown';
  }
}

/** Runs `fn` with an ORM on DATABASE_URL, closed after it. */
export async function withOrm<T>(root: CliRoot, cfg: AppConfig, fn: (orm: MikroORM) => Promise<T>): Promise<T> {
  const [{ createOrm }, { ENTITIES }, { MIGRATIONS }] = await Promise.all([
    lazy.orm(),
    root.entities(),
    lazy.migrations(),
  ]);
  const orm = await createOrm({ databaseUrl: cfg.DATABASE_URL, entities: ENTITIES, migrations: MIGRATIONS });
  try {
    return await fn(orm);
  } finally {
    await orm.close(true);
  }
}

/** The principal of an administrator's command: the organization's owner, through the CLI. */
export const systemPrincipal = (organizationId: string): Principal => ({
  organizationId,
  plan: 'ENTERPRISE',
  role: 'owner',
  via: 'SYSTEM',
  channel: 'CLI',
});
