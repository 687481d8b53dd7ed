#!/usr/bin/env node
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import pg from 'pg';
import { ConfigError, loadConfig, type AppConfig } from './platform/config.js';
import { createLogger } from './platform/logger.js';
import { createOrm, ensureDatabase, migrateUp, type MikroORM } from './platform/db/orm.js';
import { MIGRATIONS } from './platform/db/migrations/index.js';
import { DomainError } from './platform/errors.js';
import type { Principal } from './platform/context.js';
import { ENTITIES } from './entities.js';
import { ApiKeyService, OrganizationService, createAuth, insertOrganization } from './identity/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const runningTs = import.meta.url.endsWith('.ts');
/** Entry points of the processes `start` runs; they live outside src/ (facades/ and workers/). */
const API_ENTRY = 'facades/main';
const WORKER_ENTRIES: string[] = ['workers/audit.worker'];

function config(): AppConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function withOrm<T>(cfg: AppConfig, fn: (orm: MikroORM) => Promise<T>): Promise<T> {
  const orm = await createOrm({ databaseUrl: cfg.DATABASE_URL, entities: ENTITIES, migrations: MIGRATIONS });
  try {
    return await fn(orm);
  } finally {
    await orm.close(true);
  }
}

export async function migrate(cfg: AppConfig): Promise<string[]> {
  const created = await ensureDatabase(cfg.DATABASE_URL);
  if (created) console.error(`created database ${new URL(cfg.DATABASE_URL).pathname.slice(1)}`);
  return withOrm(cfg, migrateUp);
}

function spawnEntry(entry: string, name: string): ChildProcess {
  const file = resolve(root, `${entry}.${runningTs ? 'ts' : 'js'}`);
  if (!existsSync(file)) throw new Error(`missing entry point ${file}`);
  const args = runningTs ? ['--import', 'tsx', file] : [file];
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, SEO_PROCESS: name } });
  return child;
}

/** Runs children until a signal arrives; if one dies unexpectedly, stops the others and fails. */
function supervise(children: ChildProcess[]): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const c of children) if (c.exitCode === null) c.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  let remaining = children.length;
  for (const child of children) {
    child.on('exit', (code) => {
      remaining -= 1;
      if (!stopping && code !== 0) {
        console.error(`a platform process exited with code ${code}; stopping the others`);
        process.exitCode = 1;
        stop('SIGTERM');
      }
      if (remaining === 0) process.exit(process.exitCode ?? 0);
    });
  }
}

async function orgByRef(orm: MikroORM, ref: string): Promise<string> {
  const rows = await orm.em.fork().getConnection().execute<{ id: string }[]>('SELECT id FROM "organization" WHERE id = ? OR slug = ?', [ref, ref]);
  if (!rows[0]) throw new DomainError('NOT_FOUND', `organization "${ref}" not found`);
  return rows[0].id;
}

const systemPrincipal = (organizationId: string): Principal => ({ organizationId, plan: 'ENTERPRISE', role: 'owner', via: 'SYSTEM', channel: 'CLI' });

const program = new Command('seo').description('SEO audit platform').showHelpAfterError();

program.command('migrate').description('create the database if missing and apply pending migrations').action(async () => {
  const applied = await migrate(config());
  print({ applied });
});

program.command('serve').description('run the API process (no migrations)').action(() => supervise([spawnEntry(API_ENTRY, 'api')]));

program
  .command('worker')
  .description('run the background worker processes')
  .action(() => {
    if (!WORKER_ENTRIES.length) {
      console.error('no worker entry points are defined yet');
      process.exit(1);
    }
    supervise(WORKER_ENTRIES.map((e) => spawnEntry(e, e.split('/').pop()!)));
  });

program
  .command('start')
  .description('apply migrations, then run the API and the workers')
  .action(async () => {
    const cfg = config();
    const applied = await migrate(cfg);
    createLogger({ level: cfg.LOG_LEVEL, name: 'start' }).info({ applied }, 'migrations applied');
    supervise([spawnEntry(API_ENTRY, 'api'), ...WORKER_ENTRIES.map((e) => spawnEntry(e, e.split('/').pop()!))]);
  });

const user = program.command('user').description('manage users');
user
  .command('create')
  .requiredOption('--email <email>')
  .requiredOption('--password <password>', 'at least 8 characters')
  .option('--name <name>')
  .description('create a user (and their personal organization on DEFAULT_PLAN)')
  .action(async (opts: { email: string; password: string; name?: string }) => {
    const cfg = config();
    const pool = new pg.Pool({ connectionString: cfg.DATABASE_URL, max: 2 });
    try {
      const auth = createAuth(cfg, pool);
      const res = await auth.api.signUpEmail({ body: { email: opts.email, password: opts.password, name: opts.name ?? opts.email.split('@')[0] } });
      const orgs = await pool.query('SELECT o.id, o.name, o.slug, o.plan FROM "member" m JOIN "organization" o ON o.id = m."organizationId" WHERE m."userId" = $1', [res.user.id]);
      print({ user: { id: res.user.id, email: res.user.email, name: res.user.name }, organizations: orgs.rows });
    } finally {
      await pool.end();
    }
  });

const org = program.command('org').description('manage organizations');
org
  .command('create')
  .requiredOption('--name <name>')
  .requiredOption('--owner <email>', 'email of an existing user')
  .option('--plan <plan>', 'FREE, PRO or ENTERPRISE')
  .action(async (opts: { name: string; owner: string; plan?: string }) => {
    const cfg = config();
    const pool = new pg.Pool({ connectionString: cfg.DATABASE_URL, max: 2 });
    try {
      const found = await pool.query('SELECT id FROM "user" WHERE lower(email) = lower($1)', [opts.owner]);
      if (!found.rows[0]) throw new DomainError('NOT_FOUND', `user ${opts.owner} not found`);
      const plan = (opts.plan ?? cfg.DEFAULT_PLAN).toUpperCase();
      if (!['FREE', 'PRO', 'ENTERPRISE'].includes(plan)) throw new DomainError('BAD_USER_INPUT', `unknown plan ${opts.plan}`);
      const created = await insertOrganization(pool, { name: opts.name, ownerUserId: found.rows[0].id, plan });
      print({ organization: { ...created, name: opts.name, plan } });
    } finally {
      await pool.end();
    }
  });
org.command('list').action(async () => {
  await withOrm(config(), async (orm) => {
    print({ organizations: await orm.em.fork().getConnection().execute('SELECT id, name, slug, plan, "createdAt" FROM "organization" ORDER BY "createdAt"') });
  });
});
org
  .command('set-plan')
  .argument('<organization>', 'id or slug')
  .argument('<plan>', 'FREE, PRO or ENTERPRISE')
  .action(async (ref: string, plan: string) => {
    await withOrm(config(), async (orm) => {
      const em = orm.em.fork();
      print({ organization: await new OrganizationService().setPlan(em, await orgByRef(orm, ref), plan.toUpperCase()) });
    });
  });

const apiKey = program.command('api-key').description('manage API keys');
apiKey
  .command('create')
  .requiredOption('--org <organization>', 'id or slug')
  .requiredOption('--name <name>')
  .description('create an API key; the full key is printed once')
  .action(async (opts: { org: string; name: string }) => {
    await withOrm(config(), async (orm) => {
      const em = orm.em.fork();
      const { apiKey: k, key } = await new ApiKeyService().create(em, systemPrincipal(await orgByRef(orm, opts.org)), opts.name);
      print({ key, apiKey: { id: k.id, name: k.name, prefix: k.prefix, createdAt: k.createdAt } });
    });
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`error: ${message}`);
  process.exit(1);
});
