#!/usr/bin/env node
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import pg from 'pg';
import { PLANS, loadConfigOrExit, type AppConfig } from './platform/config.js';
import { createLogger } from './platform/logger.js';
import { createOrm, ensureDatabase, migrateUp, type MikroORM } from './platform/db/orm.js';
import { MIGRATIONS } from './platform/db/migrations/index.js';
import { DomainError } from './platform/errors.js';
import type { Principal } from './platform/context.js';
import { ENTITIES } from './entities.js';
import { ApiKeyService, OrganizationService, createAuth, insertOrganization } from './identity/index.js';
import { AuditFailedError, auditCrawlOptions, runAuditEngine } from './audits/index.js';
import { DEFAULT_CRAWL_OPTIONS } from './crawler/index.js';
import { normalizeProjectUrl } from './projects/index.js';
import { createLabMeter } from './technical/index.js';
import { createConfiguredSafeHttpClient, parseResolvePins } from './platform/safe-http/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const runningTs = import.meta.url.endsWith('.ts');
/** Entry points of the processes `start` runs; they live outside src/ (facades/ and workers/). */
const API_ENTRY = 'facades/main';
const WORKER_ENTRIES: string[] = ['workers/audit.worker', 'workers/rank.worker'];

const config = (): AppConfig => loadConfigOrExit();

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
      const auth = await createAuth(cfg, pool);
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
      if (!(PLANS as readonly string[]).includes(plan)) throw new DomainError('BAD_USER_INPUT', `unknown plan ${opts.plan}; use one of ${PLANS.join(', ')}`);
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

program
  .command('audit')
  .argument('<url>', 'the site to audit')
  .option('--max-pages <n>', 'pages to crawl at most', '100')
  .option('--max-depth <n>', 'link depth from the start URL', String(DEFAULT_CRAWL_OPTIONS.maxDepth))
  .option('--json', 'print the full result as JSON')
  .option('--fail-under <score>', 'exit with code 1 when the overall score is below this (for CI pipelines)')
  .description('audit a site once with the platform engine (no database); private addresses need SAFE_HTTP_ALLOW')
  .action(async (rawUrl: string, opts: { maxPages: string; maxDepth: string; json?: boolean; failUnder?: string }) => {
    const cfg = config();
    const { url } = normalizeProjectUrl(rawUrl);
    const maxPages = Number(opts.maxPages);
    const maxDepth = Number(opts.maxDepth);
    if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > 100_000) throw new DomainError('BAD_USER_INPUT', '--max-pages must be 1-100000');
    if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 100) throw new DomainError('BAD_USER_INPUT', '--max-depth must be 0-100');
    const client = createConfiguredSafeHttpClient(cfg);
    const meter = cfg.CHROMIUM_PATH ? createLabMeter({ chromiumPath: cfg.CHROMIUM_PATH, userAgent: cfg.CRAWLER_USER_AGENT, hostPins: parseResolvePins(cfg.SAFE_HTTP_RESOLVE) }) : null;
    const examples = new Map<string, string[]>();
    try {
      const outcome = await runAuditEngine(
        client,
        // The worker's own options for a project with these settings: both compute scores over the same facts.
        auditCrawlOptions({ startUrl: url, maxPages, settings: { maxDepth }, userAgent: cfg.CRAWLER_USER_AGENT }),
        {
          pages: async () => undefined,
          occurrences: async (rows) => {
            for (const r of rows) {
              const list = examples.get(r.code) ?? [];
              if (list.length < 5 && !list.includes(r.url)) list.push(r.url);
              examples.set(r.code, list);
            }
          },
          progress: async (p) => {
            if (!opts.json && process.stderr.isTTY) process.stderr.write(`\rcrawled ${p.pagesCrawled} pages, ${p.pagesQueued} queued   `);
          },
        },
        meter ? (urls) => meter.measure(urls) : undefined,
      ).catch((err: unknown) => {
        if (!(err instanceof AuditFailedError)) throw err;
        // The site could not be audited: exit code 2 and the reason, never a score.
        if (!opts.json && process.stderr.isTTY) process.stderr.write('\n');
        if (opts.json) print({ url, status: 'FAILED', error: err.message, pagesCrawled: err.pagesCrawled, pagesFailed: err.pagesFailed, scores: null, issues: [] });
        process.stderr.write(`audit failed: ${err.message}\n`);
        process.exitCode = 2;
        return null;
      });
      if (!outcome) return;
      if (!opts.json && process.stderr.isTTY) process.stderr.write('\n');
      const issues = outcome.issues.map((i) => ({
        code: i.code,
        title: i.title,
        severity: i.severity,
        category: i.category,
        affectedPages: i.affectedPages,
        applicablePages: i.applicablePages,
        examples: examples.get(i.code) ?? [],
      }));
      if (opts.json) {
        print({ url, status: 'COMPLETED', error: null, pagesCrawled: outcome.pagesCrawled, pagesFailed: outcome.pagesFailed, scores: outcome.scores, issues, coreWebVitals: outcome.vitals });
      } else {
        const s = outcome.scores;
        process.stdout.write(`${url}: ${outcome.pagesCrawled} pages${outcome.pagesFailed ? ` (${outcome.pagesFailed} could not be fetched)` : ''}\n`);
        process.stdout.write(`overall ${s.overall}  meta ${s.meta}  content ${s.content}  links ${s.links}  technical ${s.technical}  performance ${s.performance}\n\n`);
        for (const i of issues) process.stdout.write(`${i.severity.padEnd(8)} ${i.code.padEnd(28)} ${String(i.affectedPages).padStart(5)} page(s)  ${i.title}\n`);
      }
      if (opts.failUnder !== undefined && outcome.scores.overall < Number(opts.failUnder)) process.exitCode = 1;
    } finally {
      await meter?.close();
      await client.close();
    }
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error(`error: ${message}`);
  process.exit(1);
});
