#!/usr/bin/env node
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { AppConfig } from './platform/config.js';
import { logLevelOf } from './platform/log-level.js';
import { supervise } from './platform/supervisor.js';
import { isReadyMessage } from './platform/ready-signal.js';
import { DomainError } from './platform/errors.js';
import type { Principal } from './platform/context.js';
import type { MikroORM } from './platform/db/orm.js';
import type { BlockerNotice, ScoreBreakdown } from './seo/scoring/index.js';
import type { AuditCounts } from './audits/index.js';
import type { Baseline, FailOnRule, GateOccurrence } from './seo/ci-gate/index.js';

/**
 * The heavier modules load in the commands that use them (dynamic imports), so that `seo start`, which stays up
 * as the supervisor of the platform's processes, holds commander, the logger and the supervisor only: about 50 MB
 * less resident memory than with every module of the platform loaded (npm run bench -- memory). The supervisor
 * does not validate the configuration (zod alone costs ~10 MB): its children do, and one that finds it invalid
 * exits with code 2, which stops the group with that code and the child's message.
 */
const lazy = {
  config: () => import('./platform/config.js'),
  db: () => import('./platform/db/native-query.js'),
  logger: () => import('./platform/logger.js'),
  orm: () => import('./platform/db/orm.js'),
  migrations: () => import('./platform/db/migrations/index.js'),
  entities: () => import('./entities.js'),
  identity: () => import('./identity/index.js'),
  audits: () => import('./audits/index.js'),
  crawler: () => import('./crawler/index.js'),
  projects: () => import('./projects/index.js'),
  technical: () => import('./technical/index.js'),
  safeHttp: () => import('./platform/safe-http/index.js'),
  ciGate: () => import('./seo/ci-gate/index.js'),
};

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const runningTs = import.meta.url.endsWith('.ts');
/** Entry points of the processes `start` runs; they live outside src/ (facades/ and workers/). */
const API_ENTRY = 'facades/main';
/** Every queue in one worker process (the default), or a process per queue when `seo worker` names them. */
const ALL_QUEUES_WORKER = { entry: 'workers/all.worker', name: 'worker' };
const QUEUE_WORKERS: Record<string, { entry: string; name: string }> = {
  audit: { entry: 'workers/audit.worker', name: 'audit.worker' },
  rank: { entry: 'workers/rank.worker', name: 'rank.worker' },
  competitor: { entry: 'workers/competitor.worker', name: 'competitor.worker' },
  alert: { entry: 'workers/alert.worker', name: 'alert.worker' },
};
/**
 * V8 flags of every platform process, measured with `npm run bench -- memory`. V8 grows the young generation to
 * 16 MB semi-spaces while a process boots (schema building, route compilation) and keeps them: ~30 MB resident per
 * idle process; 2 MB semi-spaces cost more frequent (cheap) scavenges instead. V8's pool of background threads
 * (concurrent marking, compilation) defaults to 4 per process, each with its own malloc arena: 1 saves ~15 MB per
 * process. A flag given in NODE_OPTIONS takes precedence over these.
 */
const CHILD_NODE_FLAGS = ['--max-semi-space-size=2', '--v8-pool-size=1'].filter(
  (f) => !process.env.NODE_OPTIONS?.includes(f.split('=')[0]),
);

const config = async (): Promise<AppConfig> => (await lazy.config()).loadConfigOrExit();

/** The package's version, read from package.json above this file (src/ under tsx, dist/src/ when built). */
function packageVersion(): string {
  for (let dir = here; ; dir = dirname(dir)) {
    const file = resolve(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) return 'unknown';
  }
}

/** What `seo audit` prints on stdout. */
const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

interface AuditCommandOptions {
  maxPages: string;
  maxDepth?: string;
  json?: boolean;
  format?: OutputFormat;
  allOccurrences?: boolean;
  failUnder?: number;
  baseline?: string;
  /** The --fail-on values as given (each may hold several rules); parsed in the action. */
  failOn?: string[];
  writeJson?: string;
  sarifUris?: 'absolute' | 'relative';
  render?: 'html' | 'browser';
  /** Crawl scope (the project settings' fields, README "Crawl scope"). */
  include?: string[];
  exclude?: string[];
  subdomains?: boolean;
  list?: string;
  listSitemap?: boolean;
  queryParams?: ReturnType<typeof parseQueryParams>;
  /** A crawl login (README "Login crawls"); its secret values come from the environment only (LOGIN_SECRET_ENV). */
  login?: 'form' | 'cookie' | 'basic' | 'bearer' | 'header';
  loginUrl?: string;
  loginUserField: string;
  loginPasswordField: string;
  loginHeader?: string;
}

/**
 * The secret values of `seo audit --login`, read from the environment, never from the command line (where `ps` and
 * the shell's history would show them).
 */
const LOGIN_SECRET_ENV = {
  username: 'SEO_LOGIN_USERNAME',
  password: 'SEO_LOGIN_PASSWORD',
  token: 'SEO_LOGIN_TOKEN',
  cookies: 'SEO_LOGIN_COOKIES',
  headerValue: 'SEO_LOGIN_HEADER_VALUE',
} as const;

/**
 * `seo audit --login` as a crawl login, checked by the rule a project's crawl login is saved under (a form's login URL
 * on the site's own hosts, the fields of its kind, their limits). A missing or refused value names its flag or
 * variable.
 */
function loginOf(
  validate: (typeof import('./crawler/index.js'))['validateCrawlLogin'],
  startUrl: string,
  opts: AuditCommandOptions,
): import('./crawler/index.js').CrawlLogin {
  const env = (name: keyof typeof LOGIN_SECRET_ENV) => process.env[LOGIN_SECRET_ENV[name]] || null;
  const kind = opts.login!.toUpperCase() as import('./crawler/index.js').CrawlLoginKind;
  const input = {
    kind,
    ...(kind === 'FORM' && {
      loginUrl: opts.loginUrl ?? null,
      usernameField: opts.loginUserField,
      passwordField: opts.loginPasswordField,
    }),
    ...((kind === 'FORM' || kind === 'BASIC') && { username: env('username'), password: env('password') }),
    ...(kind === 'BEARER' && { token: env('token') }),
    ...(kind === 'COOKIE' && { cookies: env('cookies') }),
    ...(kind === 'HEADER' && { headerName: opts.loginHeader ?? null, headerValue: env('headerValue') }),
  };
  const where: Record<string, string> = {
    loginUrl: '--login-url',
    usernameField: '--login-user-field',
    passwordField: '--login-password-field',
    headerName: '--login-header',
    ...LOGIN_SECRET_ENV,
  };
  try {
    const { facts, secrets } = validate({ url: startUrl, settings: { crawlSubdomains: opts.subdomains } }, input, {});
    // Bound to this command's site and scope: sent nowhere else, as a project's login is.
    const binding = {
      startUrl,
      includeSubdomains: opts.subdomains === true,
      include: opts.include ?? [],
      exclude: opts.exclude ?? [],
    };
    return { ...facts, binding, secrets };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const field = err.details?.[0]?.path ?? '';
    const message = err.details?.[0]?.message ?? err.message;
    throw new DomainError('BAD_USER_INPUT', `--login ${opts.login}: ${where[field] ?? field} ${message}`);
  }
}

/** `--query-params keep|drop-all|drop:<a,b>` as the project settings hold it. */
function parseQueryParams(value: string): { queryParameters: 'keep' | 'drop-all' | 'drop-listed'; names: string[] } {
  if (value === 'keep' || value === 'drop-all') return { queryParameters: value, names: [] };
  const m = /^drop:(.+)$/.exec(value);
  const names = m ? m[1].split(',').map((n) => n.trim()) : [];
  if (!m || names.some((n) => !n || /[&=#\s]/.test(n)))
    throw new InvalidArgumentError(`"${value}" is not keep, drop-all or drop:<name,name…>.`);
  return { queryParameters: 'drop-listed', names };
}

/** `--fail-under`: a score from 0 to 100 (decimals allowed); anything else is a usage error (exit code 2). */
function parseScoreThreshold(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError(`"${value}" is not a score from 0 to 100.`);
  return n;
}

/** Exit codes, documented in --help and the README. */
const EXIT = { ok: 0, gate: 1, failed: 2 } as const;

// A reader that stops early (`seo audit … | head`) closes the pipe: the rest of the output has nowhere to go, and
// that is not an error of the command. It ends quietly with 0 instead of a stack trace and 1.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  throw err;
});
const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  the --fail-under gate tripped (the score is below the threshold), or a --fail-on rule did (against --baseline)
  2  the audit failed, or bad usage (unknown option, invalid value, a --baseline that cannot be compared with)`;

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function withOrm<T>(cfg: AppConfig, fn: (orm: MikroORM) => Promise<T>): Promise<T> {
  const [{ createOrm }, { ENTITIES }, { MIGRATIONS }] = await Promise.all([
    lazy.orm(),
    lazy.entities(),
    lazy.migrations(),
  ]);
  const orm = await createOrm({ databaseUrl: cfg.DATABASE_URL, entities: ENTITIES, migrations: MIGRATIONS });
  try {
    return await fn(orm);
  } finally {
    await orm.close(true);
  }
}

export async function migrate(cfg: AppConfig): Promise<string[]> {
  const { ensureDatabase, migrateUp } = await lazy.orm();
  const created = await ensureDatabase(cfg.DATABASE_URL);
  if (created) console.error(`created database ${new URL(cfg.DATABASE_URL).pathname.slice(1)}`);
  return withOrm(cfg, migrateUp);
}

function spawnEntry(entry: string, name: string, onReady: (url?: string) => void): ChildProcess {
  const file = resolve(root, `${entry}.${runningTs ? 'ts' : 'js'}`);
  if (!existsSync(file)) throw new Error(`missing entry point ${file}`);
  const args = [...CHILD_NODE_FLAGS, ...(runningTs ? ['--import', 'tsx'] : []), file];
  // An IPC channel besides the inherited output: the child says when it is up (src/platform/ready-signal.ts).
  const child = spawn(process.execPath, args, {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, SEO_PROCESS: name },
  });
  child.on('message', (message) => {
    if (isReadyMessage(message)) onReady(message.url);
  });
  return child;
}

/**
 * Runs the entry points under the supervisor (src/platform/supervisor.ts) until SIGINT/SIGTERM. Once every one of
 * them is up (the API listening, the workers consuming), one plain line says where to open the platform (when the
 * group has an API process: `start`, `serve`).
 */
async function superviseEntries(entries: { entry: string; name: string }[]): Promise<void> {
  const log = (await lazy.logger()).createLogger({ level: logLevelOf(process.env), name: 'supervisor' });
  const ready = new Set<string>();
  let url: string | undefined;
  let announced = false;
  const onReady = (name: string, childUrl?: string) => {
    ready.add(name);
    url = childUrl ?? url;
    if (announced || !url || ready.size < entries.length) return;
    announced = true;
    process.stdout.write(`Ready: open ${url}\n`);
  };
  const group = supervise(
    entries.map(({ entry, name }) => ({
      name,
      start: () => spawnEntry(entry, name, (childUrl) => onReady(name, childUrl)),
    })),
    { log },
  );
  process.on('SIGINT', () => group.stop('SIGINT'));
  process.on('SIGTERM', () => group.stop('SIGTERM'));
  void group.done.then((code) => process.exit(code));
}

/** `seo migrate` as a child process; its JSON answer's `applied`, or the child's exit code as a failure. */
function migrateInChild(): Promise<string[]> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...(runningTs ? ['--import', 'tsx'] : []), self, 'migrate'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  return new Promise((ok, fail) => {
    child.on('error', fail);
    child.on('exit', (code) => {
      // Code 2: the configuration is invalid (the child printed why); `start` ends with the same code.
      if (code === 2) process.exit(2);
      if (code !== 0) return fail(new Error(`migrations failed (seo migrate exited with code ${code})`));
      try {
        ok((JSON.parse(out) as { applied: string[] }).applied);
      } catch {
        fail(new Error(`seo migrate printed no result: ${out.slice(0, 200)}`));
      }
    });
  });
}

async function orgByRef(orm: MikroORM, ref: string): Promise<string> {
  const { IdentityRepository } = await lazy.identity();
  const id = await new IdentityRepository().organizationIdByRef(orm.em, ref);
  if (!id) throw new DomainError('NOT_FOUND', `organization "${ref}" not found`);
  return id;
}

const systemPrincipal = (organizationId: string): Principal => ({
  organizationId,
  plan: 'ENTERPRISE',
  role: 'owner',
  via: 'SYSTEM',
  channel: 'CLI',
});

const program = new Command('seo')
  .description('SEO audit platform: run the server and workers, manage users and keys, audit a site from the shell')
  .version(packageVersion(), '-V, --version', 'print the version')
  // Usage errors throw (see the catch at the end) instead of exiting with commander's code 1: 1 is the gate.
  .exitOverride()
  .showHelpAfterError('(add --help for usage)')
  .addHelpText(
    'after',
    `${EXIT_CODES_HELP}\n\nEvery command prints JSON except \`audit\` (text unless --json or --format). ` +
      `\`seo <command> --help\` describes one.`,
  );

program
  .command('migrate')
  .description('create the database if missing and apply pending migrations')
  .action(async () => {
    const applied = await migrate(await config());
    print({ applied });
  });

program
  .command('serve')
  .description('run the API process (no migrations)')
  .action(() => superviseEntries([{ entry: API_ENTRY, name: 'api' }]));

program
  .command('worker')
  .argument(
    '[queues...]',
    `run a process per named queue (${Object.keys(QUEUE_WORKERS).join(', ')}) instead of one for all`,
  )
  .description('run the background workers: one process for every queue, or one process per named queue')
  .action((queues: string[]) => {
    const unknown = queues.filter((q) => !Object.hasOwn(QUEUE_WORKERS, q));
    if (unknown.length)
      throw new DomainError(
        'BAD_USER_INPUT',
        `unknown queue ${unknown.join(', ')}; use ${Object.keys(QUEUE_WORKERS).join(', ')}`,
      );
    return superviseEntries(queues.length ? [...new Set(queues)].map((q) => QUEUE_WORKERS[q]) : [ALL_QUEUES_WORKER]);
  });

program
  .command('start')
  .description('apply migrations, then run the API and the workers')
  .action(async () => {
    // In a child process: the configuration check, the ORM and the migrations never load into the supervisor,
    // which stays up. A bad configuration ends `seo migrate` with code 2 and its message, and `start` with it.
    const applied = await migrateInChild();
    (await lazy.logger())
      .createLogger({ level: logLevelOf(process.env), name: 'start' })
      .info({ applied }, 'migrations applied');
    await superviseEntries([{ entry: API_ENTRY, name: 'api' }, ALL_QUEUES_WORKER]);
  });

const user = program.command('user').description('manage users');
user
  .command('create')
  .requiredOption('--email <email>')
  .requiredOption('--password <password>', 'at least 8 characters')
  .option('--name <name>')
  .description('create a user (and their personal organization on DEFAULT_PLAN)')
  .action(async (opts: { email: string; password: string; name?: string }) => {
    const cfg = await config();
    const [{ withPlatformPool }, { createAuth, IdentityRepository }] = await Promise.all([lazy.db(), lazy.identity()]);
    await withPlatformPool(cfg.DATABASE_URL, async (pool) => {
      const auth = await createAuth(cfg, pool);
      const res = await auth.api.signUpEmail({
        body: { email: opts.email, password: opts.password, name: opts.name ?? opts.email.split('@')[0] },
      });
      const organizations = await new IdentityRepository().organizationsOfUser(pool, res.user.id);
      print({ user: { id: res.user.id, email: res.user.email, name: res.user.name }, organizations });
    });
  });

user
  .command('set-password')
  .requiredOption('--email <email>')
  .requiredOption('--password <password>', 'at least 8 characters')
  .description("set a user's password and end their sessions (a forgotten password when no SMTP_URL is set)")
  .action(async (opts: { email: string; password: string }) => {
    const cfg = await config();
    const [{ withPlatformPool }, { createAuth, IdentityRepository }] = await Promise.all([lazy.db(), lazy.identity()]);
    await withPlatformPool(cfg.DATABASE_URL, async (pool) => {
      if (opts.password.length < 8 || opts.password.length > 128)
        throw new DomainError('BAD_USER_INPUT', 'the password must be 8 to 128 characters');
      const userId = await new IdentityRepository().userIdByEmail(pool, opts.email);
      if (!userId) throw new DomainError('NOT_FOUND', `user ${opts.email} not found`);
      const ctx = await (await createAuth(cfg, pool)).$context;
      await ctx.internalAdapter.updatePassword(userId, await ctx.password.hash(opts.password));
      await ctx.internalAdapter.deleteUserSessions(userId);
      print({ user: { id: userId, email: opts.email }, sessionsEnded: true });
    });
  });

const org = program.command('org').description('manage organizations');
org
  .command('create')
  .description('create an organization owned by an existing user')
  .requiredOption('--name <name>')
  .requiredOption('--owner <email>', 'email of an existing user')
  .option('--plan <plan>', 'FREE, PRO or ENTERPRISE')
  .action(async (opts: { name: string; owner: string; plan?: string }) => {
    const cfg = await config();
    const [{ withPlatformPool }, { insertOrganization, IdentityRepository }, { PLANS }] = await Promise.all([
      lazy.db(),
      lazy.identity(),
      lazy.config(),
    ]);
    await withPlatformPool(cfg.DATABASE_URL, async (pool) => {
      const ownerUserId = await new IdentityRepository().userIdByEmail(pool, opts.owner);
      if (!ownerUserId) throw new DomainError('NOT_FOUND', `user ${opts.owner} not found`);
      const plan = (opts.plan ?? cfg.DEFAULT_PLAN).toUpperCase();
      if (!(PLANS as readonly string[]).includes(plan))
        throw new DomainError('BAD_USER_INPUT', `unknown plan ${opts.plan}; use one of ${PLANS.join(', ')}`);
      const created = await insertOrganization(pool, { name: opts.name, ownerUserId, plan });
      print({ organization: { ...created, name: opts.name, plan } });
    });
  });
org
  .command('list')
  .description('list all organizations')
  .action(async () => {
    await withOrm(await config(), async (orm) => {
      const { IdentityRepository } = await lazy.identity();
      print({ organizations: await new IdentityRepository().allOrganizations(orm.em) });
    });
  });
org
  .command('set-plan')
  .description("change an organization's plan (plans are set server-side only)")
  .argument('<organization>', 'id or slug')
  .argument('<plan>', 'FREE, PRO or ENTERPRISE')
  .action(async (ref: string, plan: string) => {
    await withOrm(await config(), async (orm) => {
      const em = orm.em.fork();
      const { OrganizationService } = await lazy.identity();
      print({
        organization: await new OrganizationService().setPlan(em, await orgByRef(orm, ref), plan.toUpperCase()),
      });
    });
  });

const apiKey = program.command('api-key').description('manage API keys');
apiKey
  .command('create')
  .requiredOption('--org <organization>', 'id or slug')
  .requiredOption('--name <name>')
  .description('create an API key; the full key is printed once')
  .action(async (opts: { org: string; name: string }) => {
    await withOrm(await config(), async (orm) => {
      const em = orm.em.fork();
      const { ApiKeyService } = await lazy.identity();
      const { apiKey: k, key } = await new ApiKeyService().create(
        em,
        systemPrincipal(await orgByRef(orm, opts.org)),
        opts.name,
      );
      print({ key, apiKey: { id: k.id, name: k.name, prefix: k.prefix, createdAt: k.createdAt } });
    });
  });

/** A key given to `seo secrets`: the key material itself, or `env:NAME` to read it from that variable. */
function keyMaterialArgument(option: string, value: string, minLength: number): string {
  const named = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(value);
  const material = named ? process.env[named[1]!] : value;
  if (!material) throw new DomainError('BAD_USER_INPUT', `${option}: the variable ${named?.[1]} is not set`);
  if (material.length < minLength)
    throw new DomainError('BAD_USER_INPUT', `${option} must be at least ${minLength} characters`);
  return material;
}

const secrets = program.command('secrets').description('manage the keys that seal stored secrets');
secrets
  .command('rotate-crawl-key')
  .description(
    "re-seal every project's crawl login from one key to another, in one transaction (all or none); then set " +
      'CRAWL_SECRET_KEY to the new key. A key is given as is or as env:NAME (read from that variable, kept out ' +
      'of the process list). Logins already sealed with the new key are left alone.',
  )
  .requiredOption('--from <old>', 'the key the logins are sealed with now (CRAWL_SECRET_KEY, else BETTER_AUTH_SECRET)')
  .requiredOption('--to <new>', 'the new key (at least 32 characters)')
  .action(async (opts: { from: string; to: string }) => {
    const from = keyMaterialArgument('--from', opts.from, 1);
    const to = keyMaterialArgument('--to', opts.to, 32);
    await withOrm(await config(), async (orm) => {
      const { CrawlLoginService } = await lazy.crawler();
      print({ crawlLogins: await CrawlLoginService.rotate(orm.em, from, to) });
    });
  });

/** SARIF's driver: who made the results, and where to read about them (the home the crawler's User-Agent names). */
const SARIF_TOOL = { name: 'SEO Audit Platform', informationUri: 'https://github.com/seo-audit-platform' };
/** Lines of occurrences the text report and the gate's message print at most (--format json lists them all). */
const LISTED_AT_MOST = 50;

/**
 * --baseline: a JSON file (the CLI's `--json --all-occurrences` output, the platform's report of one audit or its
 * issues export), or the id of a completed audit in the platform's database. Whatever keeps it from being compared
 * with is bad usage (exit code 2), before anything is crawled.
 */
async function loadBaseline(cfg: AppConfig, ref: string): Promise<Baseline> {
  const { parseBaselineDocument, BaselineDocumentError } = await lazy.ciGate();
  const usage = (message: string) => new DomainError('BAD_USER_INPUT', `--baseline ${ref}: ${message}`);
  if (existsSync(ref) || !(await import('./platform/ids.js')).isUuid(ref)) {
    let text: string;
    try {
      text = readFileSync(ref, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw usage(code === 'ENOENT' ? 'no such file (nor an audit id)' : (err as Error).message);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      throw usage('not JSON');
    }
    try {
      return parseBaselineDocument(doc, ref);
    } catch (err) {
      if (err instanceof BaselineDocumentError) throw usage(err.message);
      throw err;
    }
  }
  try {
    const stored = await withOrm(cfg, async (orm) => (await lazy.audits()).readAuditBaseline(orm.em.fork(), ref));
    return { label: `audit ${ref}`, url: stored.url, overall: stored.overallScore, occurrences: stored.occurrences };
  } catch (err) {
    if (err instanceof DomainError) throw usage(err.message);
    // No database to read it from is no baseline either: exit code 2, never 1 (which says the gate tripped). The
    // driver's message ends with the cause, after the statement it quotes.
    const cause = (err instanceof Error ? err.message : String(err)).split(' - ').pop();
    throw usage(`the audit could not be read from the database (${cause})`);
  }
}

/** `  CRITICAL META_TITLE_MISSING           https://…` lines, at most LISTED_AT_MOST, then how many more. */
function occurrenceLines(list: readonly GateOccurrence[], prefix = '  '): string {
  const shown = list
    .slice(0, LISTED_AT_MOST)
    .map((o) => `${prefix}${o.severity.padEnd(8)} ${o.code.padEnd(28)} ${o.url}\n`)
    .join('');
  const more = list.length - LISTED_AT_MOST;
  return more > 0 ? `${shown}${prefix}… and ${more} more (--format json lists every one)\n` : shown;
}

program
  .command('audit')
  .argument('<url>', 'the site to audit')
  .option('--max-pages <n>', 'pages to crawl at most', '100')
  .option('--max-depth <n>', "link depth from the start URL (default: the crawler's)")
  .addOption(
    new Option('--format <format>', 'what to print (default: text; sarif is SARIF 2.1.0, junit is JUnit XML)')
      .choices(OUTPUT_FORMATS)
      .conflicts('json'),
  )
  .option('--json', 'print the full result as JSON (the same as --format json)')
  .option('--all-occurrences', 'with --json: every affected URL of each issue with its evidence, not 5 examples')
  .addOption(
    new Option(
      '--fail-under <score>',
      'exit with code 1 when the overall score is below this, 0-100 (for CI pipelines)',
    ).argParser(parseScoreThreshold),
  )
  .option(
    '--baseline <file|id>',
    'compare with an earlier audit: the JSON of `seo audit --json --all-occurrences` (or --write-json), a ' +
      "report's JSON with its occurrences, or a completed audit's id in the database (DATABASE_URL)",
  )
  .option(
    '--fail-on <rules>',
    'with --baseline, exit with code 1 when a rule trips: new-error (a new CRITICAL occurrence), new-warning, ' +
      'new-issue, score-drop:<points>; comma-separated or repeated',
    (value: string, previous: string[] = []) => [...previous, value],
  )
  .option('--write-json <file>', 'also write the JSON of --json --all-occurrences to a file (the next --baseline)')
  .addOption(
    new Option(
      '--render <mode>',
      'html (default): analyse the HTML as served; browser: render each page in headless Chromium ' +
        '(RENDER_CHROMIUM_PATH, else CHROMIUM_PATH) ' +
        'and analyse the rendered DOM',
    ).choices(['html', 'browser']),
  )
  .option(
    '--include <pattern>',
    'crawl only URLs whose path and query match (repeatable): a glob (`*` within a segment, `**` across, `?` one ' +
      'character; anchored: /blog/**) or a regular expression /…/flags (searched anywhere: /[?&]page=/)',
    (value: string, previous: string[] = []) => [...previous, value],
  )
  .option(
    '--exclude <pattern>',
    'never fetch URLs whose path and query match (repeatable; same syntax as --include)',
    (value: string, previous: string[] = []) => [...previous, value],
  )
  .option('--subdomains', "crawl the site's subdomains too (each one's robots.txt is obeyed)")
  .addOption(
    new Option(
      '--list <file>',
      'list mode: audit only the URLs of this file (one per line; # comments), links checked but not followed',
    ).conflicts('listSitemap'),
  )
  .option('--list-sitemap', "list mode: audit only the URLs of the site's sitemap")
  .addOption(
    new Option(
      '--query-params <mode>',
      'query parameters of found URLs: keep (default), drop-all, or drop:<a,b> (drop the named ones)',
    ).argParser(parseQueryParams),
  )
  .addOption(
    new Option(
      '--login <kind>',
      "crawl signed in, credentials sent to the site's own hosts only: form (posts the --login-url page's form with " +
        'SEO_LOGIN_USERNAME and SEO_LOGIN_PASSWORD), basic (the same two), bearer (SEO_LOGIN_TOKEN), cookie ' +
        '(SEO_LOGIN_COOKIES, "a=1; b=2") or header (--login-header, SEO_LOGIN_HEADER_VALUE); secrets come from the ' +
        'environment only',
    ).choices(['form', 'cookie', 'basic', 'bearer', 'header']),
  )
  .option('--login-url <url>', "with --login form: the login page, on the site's own host")
  .option('--login-user-field <name>', "with --login form: the form's username field", 'username')
  .option('--login-password-field <name>', "with --login form: the form's password field", 'password')
  .option('--login-header <name>', 'with --login header: the header to send')
  .addOption(
    new Option(
      '--sarif-uris <style>',
      'with --format sarif: locations as URLs (absolute, the default) or as host/path (relative: GitHub code ' +
        'scanning refuses http(s) ones)',
    ).choices(['absolute', 'relative']),
  )
  .description('audit a site once with the platform engine (no database); private addresses need SAFE_HTTP_ALLOW')
  .addHelpText(
    'after',
    `\nExamples:\n  npx seo audit https://example.com --max-pages 50\n  npx seo audit https://example.com ` +
      `--json --fail-under 80 | jq .scores\n  npx seo audit https://example.com --baseline seo-baseline.json ` +
      `--fail-on new-error,score-drop:5 \\\n    --format sarif --write-json seo-baseline.next.json ` +
      `> seo.sarif\n\n` +
      'A CI gate: occurrences (check code, URL) of this run that the baseline lacks are new, those it has that ' +
      'this run\nlacks are fixed. When a --fail-on rule trips, the rule and the new occurrences are printed on ' +
      'stderr.\n' +
      `${EXIT_CODES_HELP}`,
  )
  .action(async (rawUrl: string, opts: AuditCommandOptions) => {
    const cfg = await config();
    const [
      { runAuditEngine, AuditFailedError, auditCrawlOptions },
      {
        DEFAULT_CRAWL_OPTIONS,
        loadBrowserRendering,
        compileCrawlScope,
        scopePatternError,
        validateCrawlLogin,
        openCrawlSession,
        CrawlLoginFailure,
      },
      { parseProjectUrl, resolveStartUrl },
      { createLabMeter },
      { createConfiguredSafeHttpClient, parseResolvePins },
      gate,
    ] = await Promise.all([
      lazy.audits(),
      lazy.crawler(),
      lazy.projects(),
      lazy.technical(),
      lazy.safeHttp(),
      lazy.ciGate(),
    ]);
    const format: OutputFormat = opts.format ?? (opts.json ? 'json' : 'text');
    const json = format === 'json';
    const parsed = parseProjectUrl(rawUrl);
    const maxPages = Number(opts.maxPages);
    const maxDepth = Number(opts.maxDepth ?? DEFAULT_CRAWL_OPTIONS.maxDepth);
    if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > 100_000)
      throw new DomainError('BAD_USER_INPUT', '--max-pages must be 1-100000');
    if (!Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > 100)
      throw new DomainError('BAD_USER_INPUT', '--max-depth must be 0-100');
    if (opts.allOccurrences && !json)
      throw new DomainError('BAD_USER_INPUT', '--all-occurrences needs --json (or --format json)');
    if (opts.sarifUris && format !== 'sarif')
      throw new DomainError('BAD_USER_INPUT', '--sarif-uris needs --format sarif');
    // Crawl scope: the flags are the project settings' fields, checked as saving them would check them.
    for (const [flag, patterns] of [
      ['--include', opts.include ?? []],
      ['--exclude', opts.exclude ?? []],
    ] as const) {
      for (const pattern of patterns) {
        const error = scopePatternError(pattern);
        if (error) throw new DomainError('BAD_USER_INPUT', `${flag} ${JSON.stringify(pattern)} ${error}`);
      }
    }
    let listUrls: string[] | undefined;
    if (opts.list) {
      let text: string;
      try {
        text = readFileSync(opts.list, 'utf8');
      } catch (err) {
        throw new DomainError('BAD_USER_INPUT', `--list: cannot read ${opts.list} (${(err as Error).message})`);
      }
      listUrls = text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#'));
      if (!listUrls.length) throw new DomainError('BAD_USER_INPUT', `--list: ${opts.list} lists no URL`);
      if (listUrls.length > maxPages)
        throw new DomainError('BAD_USER_INPUT', `--list: ${listUrls.length} URLs, more than --max-pages ${maxPages}`);
    }
    const scopeSettings = {
      includePatterns: opts.include,
      excludePatterns: opts.exclude,
      crawlSubdomains: opts.subdomains,
      listMode: opts.list ? ('urls' as const) : opts.listSitemap ? ('sitemap' as const) : undefined,
      startUrls: listUrls,
      queryParameters: opts.queryParams?.queryParameters,
      droppedParameters: opts.queryParams?.names,
    };
    // The rules and the baseline are checked before anything is crawled: a gate that cannot judge is bad usage.
    let rules: FailOnRule[];
    let baseline: Baseline | null = null;
    try {
      rules = gate.mergeRules(...(opts.failOn ?? []).map((value) => gate.parseFailOn(value)));
      if (!opts.baseline) gate.assertRulesApplicable(rules, null);
      if (opts.baseline) baseline = await loadBaseline(cfg, opts.baseline);
      gate.assertRulesApplicable(rules, baseline);
    } catch (err) {
      if (err instanceof gate.GateRuleError) throw new DomainError('BAD_USER_INPUT', err.message);
      throw err;
    }
    // Every occurrence is kept when something reads them all: the JSON, the comparison, the reports, the file.
    const keepAll = Boolean(opts.allOccurrences || baseline || opts.writeJson || format !== 'text');
    const client = createConfiguredSafeHttpClient(cfg);
    /** The site could not be audited: exit code 2 and the reason, never a score. */
    const failed = (target: string, reason: string, pagesCrawled = 0, pagesFailed = 0) => {
      if (format === 'text' && process.stderr.isTTY) process.stderr.write('\n');
      if (json)
        print({ url: target, status: 'FAILED', error: reason, pagesCrawled, pagesFailed, scores: null, issues: [] });
      process.stderr.write(`audit failed: ${reason}\n`);
      process.exitCode = EXIT.failed;
    };
    // A bare domain (example.com, host:8080) is audited on the scheme it answers on, https first, as for a project.
    let url: string;
    try {
      ({ url } = await resolveStartUrl(parsed, client));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      failed(parsed.url, err.message);
      return;
    }
    {
      const scope = compileCrawlScope(url, {
        include: opts.include,
        exclude: opts.exclude,
        includeSubdomains: opts.subdomains,
        queryParameters: opts.queryParams?.queryParameters,
        droppedParameters: opts.queryParams?.names,
      });
      for (const listed of listUrls ?? []) {
        let target: URL | null = null;
        try {
          target = new URL(listed);
        } catch {
          // reported below
        }
        if (!target || !scope.inSite(target) || !scope.matches(target))
          throw new DomainError(
            'BAD_USER_INPUT',
            `--list: ${listed} is not a URL of ${new URL(url).host}${opts.subdomains ? ' or its subdomains' : ''} ` +
              'inside the crawl scope',
          );
      }
      if (!scopeSettings.listMode && !scope.matches(new URL(url)))
        throw new DomainError('BAD_USER_INPUT', `${url} is outside its own crawl scope (--include/--exclude)`);
    }
    // A login crawl signs in first (a failed login fails the audit, exit code 2) and crawls with the credentials.
    let crawlClient = client;
    if (opts.login) {
      const login = loginOf(validateCrawlLogin, url, opts);
      try {
        crawlClient = await openCrawlSession(client, login, { startUrl: url, includeSubdomains: opts.subdomains });
      } catch (err) {
        if (!(err instanceof CrawlLoginFailure)) throw err;
        failed(url, err.message);
        return;
      }
    }
    const meter = cfg.CHROMIUM_PATH
      ? createLabMeter({
          chromiumPath: cfg.CHROMIUM_PATH,
          userAgent: cfg.CRAWLER_USER_AGENT,
          hostPins: parseResolvePins(cfg.SAFE_HTTP_RESOLVE),
        })
      : null;
    // Browser rendering (--render browser) loads its code only then; without a Chromium the engine fails the audit.
    const renderChromium = (await lazy.config()).rendererChromiumPath(cfg);
    const renderer =
      opts.render === 'browser' && renderChromium
        ? (await loadBrowserRendering()).createPageRenderer({
            chromiumPath: renderChromium,
            client,
            pages: cfg.RENDER_PAGES,
            timeoutMs: cfg.RENDER_TIMEOUT_MS,
          })
        : undefined;
    const examples = new Map<string, string[]>();
    /** Every occurrence the engine reports, by code, in the order it found them (when keepAll). */
    const occurrences = new Map<string, { url: string; evidence: unknown }[]>();
    try {
      const outcome = await runAuditEngine(
        crawlClient,
        // The worker's own options for a project with these settings: both compute scores over the same facts.
        auditCrawlOptions({
          startUrl: url,
          maxPages,
          settings: { maxDepth, renderingMode: opts.render, ...scopeSettings },
          userAgent: cfg.CRAWLER_USER_AGENT,
        }),
        {
          pages: async () => undefined,
          everyLinkInEvidence: Boolean(opts.allOccurrences || opts.writeJson),
          occurrences: async (rows) => {
            for (const r of rows) {
              if (keepAll) {
                const all = occurrences.get(r.code) ?? [];
                all.push({ url: r.url, evidence: r.evidence });
                occurrences.set(r.code, all);
              }
              const list = examples.get(r.code) ?? [];
              if (list.length < 5 && !list.includes(r.url)) list.push(r.url);
              examples.set(r.code, list);
            }
          },
          progress: async (p) => {
            if (format === 'text' && process.stderr.isTTY)
              process.stderr.write(`\rcrawled ${p.pagesCrawled} pages, ${p.pagesQueued} queued   `);
          },
        },
        meter ? (urls) => meter.measure(urls) : undefined,
        undefined,
        undefined,
        renderer,
      ).catch((err: unknown) => {
        if (!(err instanceof AuditFailedError)) throw err;
        failed(url, err.message, err.pagesCrawled, err.pagesFailed);
        return null;
      });
      if (!outcome) return;
      if (format === 'text' && process.stderr.isTTY) process.stderr.write('\n');
      const issueOf = (i: (typeof outcome.issues)[number], withOccurrences: boolean) => ({
        code: i.code,
        title: i.title,
        severity: i.severity,
        category: i.category,
        scope: i.scope,
        affectedPages: i.affectedPages,
        applicablePages: i.applicablePages,
        examples: examples.get(i.code) ?? [],
        ...(withOccurrences ? { occurrences: occurrences.get(i.code) ?? [] } : {}),
      });
      const issues = outcome.issues.map((i) => issueOf(i, Boolean(opts.allOccurrences)));
      // Each occurrence with its issue's severity as this run found it (what the platform stores and shows).
      const current: GateOccurrence[] = outcome.issues.flatMap((i) =>
        (occurrences.get(i.code) ?? []).map((o) => ({
          code: i.code,
          url: o.url,
          severity: i.severity,
          title: i.title,
          category: i.category,
          evidence: o.evidence,
        })),
      );
      const comparison = baseline ? gate.compareOccurrences(baseline.occurrences, current) : null;
      const verdict =
        baseline && comparison
          ? gate.evaluateGate(rules, comparison, { baseline: baseline.overall, current: outcome.scores.overall })
          : null;
      const failUnder =
        opts.failUnder === undefined
          ? null
          : {
              name: `fail-under:${opts.failUnder}`,
              tripped: outcome.scores.overall < opts.failUnder,
              reason: `the overall score ${outcome.scores.overall} is ${
                outcome.scores.overall < opts.failUnder ? 'below' : 'at or above'
              } --fail-under ${opts.failUnder}`,
            };
      const { crawl } = outcome;
      // Said on stderr in every format: what the scores do not cover, what could not be checked, what compares badly.
      if (crawl.truncated)
        process.stderr.write(
          `note: --max-pages ${maxPages} stopped the crawl: it covers the first ${outcome.pagesCrawled} of at least ` +
            `${crawl.pagesDiscovered} URLs found; the scores cover these\n`,
        );
      const { counts } = outcome;
      const external = counts.externalLinks;
      const notTried = external.found - external.checked - external.couldNotCheck;
      if (external.couldNotCheck || notTried > 0)
        process.stderr.write(
          `note: ${formatCount(external.checked)} of ${formatCount(external.found)} external links checked ` +
            '(the others are not counted as broken)' +
            (notTried > 0
              ? `; ${formatCount(notTried)} not tried (the audit checks at most ` +
                `${formatCount(DEFAULT_CRAWL_OPTIONS.externalLinkBudget)})`
              : '') +
            (external.couldNotCheck
              ? `; ${formatCount(external.couldNotCheck)} could not be checked: ${crawl.uncheckedLinks
                  .slice(0, 3)
                  .map((l) => `${l.url} (${l.reason})`)
                  .join(', ')}${crawl.uncheckedLinks.length > 3 ? ', …' : ''}`
              : '') +
            '\n',
        );
      if (baseline?.url && URL.canParse(baseline.url) && new URL(baseline.url).origin !== new URL(url).origin)
        process.stderr.write(
          `note: ${baseline.label} audited ${new URL(baseline.url).origin}, this run ${new URL(url).origin}: ` +
            'occurrences are matched by URL, so those on another host all count as new\n',
        );
      const result = {
        url,
        status: 'COMPLETED',
        error: null,
        pagesCrawled: outcome.pagesCrawled,
        pagesFailed: outcome.pagesFailed,
        pagesDiscovered: crawl.pagesDiscovered,
        truncated: crawl.truncated,
        maxPages,
        counts,
        uncheckedLinks: crawl.uncheckedLinks,
        scores: outcome.scores,
        scoreBreakdown: outcome.breakdown,
        issues,
        coreWebVitals: outcome.vitals,
      };
      if (opts.writeJson) {
        try {
          writeFileSync(
            opts.writeJson,
            `${JSON.stringify({ ...result, issues: outcome.issues.map((i) => issueOf(i, true)) }, null, 2)}\n`,
          );
        } catch (err) {
          throw new DomainError('BAD_USER_INPUT', `--write-json ${opts.writeJson}: ${(err as Error).message}`);
        }
      }
      const listed = (list: GateOccurrence[]) => ({
        count: list.length,
        occurrences: list.map((o) => ({
          code: o.code,
          severity: o.severity,
          category: o.category,
          title: o.title,
          url: o.url,
        })),
      });
      const scoreChange =
        baseline && baseline.overall !== null
          ? {
              baseline: baseline.overall,
              current: outcome.scores.overall,
              change: outcome.scores.overall - baseline.overall,
            }
          : null;
      if (format === 'json') {
        print({
          ...result,
          ...(comparison && baseline && verdict
            ? {
                comparison: {
                  baseline: { label: baseline.label, url: baseline.url, overall: baseline.overall },
                  score: scoreChange,
                  new: listed(comparison.new),
                  fixed: listed(comparison.fixed),
                  unchanged: { count: comparison.unchanged.length },
                  gate: {
                    rules: rules.map((r) => r.name),
                    tripped: verdict.tripped,
                    verdicts: verdict.verdicts.map((v) => ({ rule: v.rule, tripped: v.tripped, reason: v.reason })),
                  },
                },
              }
            : {}),
        });
      } else if (format === 'sarif') {
        print(
          gate.buildSarifLog({
            tool: { ...SARIF_TOOL, version: packageVersion() },
            occurrences: current,
            comparison,
            uris: opts.sarifUris ?? 'absolute',
          }),
        );
      } else if (format === 'junit') {
        process.stdout.write(
          gate.buildJunitXml({
            name: `seo audit ${url}`,
            occurrences: current,
            comparison,
            rules,
            checks: [
              ...(verdict?.verdicts ?? []).map((v) => ({ name: v.rule, tripped: v.tripped, reason: v.reason })),
              ...(failUnder ? [failUnder] : []),
            ],
          }),
        );
      } else {
        const s = outcome.scores;
        process.stdout.write(
          `${url}: ${countsLine(counts)}` +
            `${outcome.pagesFailed ? ` (${formatCount(outcome.pagesFailed)} could not be fetched)` : ''}\n`,
        );
        process.stdout.write(`${coverageLine(counts)}\n`);
        process.stdout.write(
          `overall ${s.overall}  meta ${s.meta}  content ${s.content}  links ${s.links}  ` +
            `technical ${s.technical}  performance ${s.performance}\n`,
        );
        const { blockerNotices } = await import('./seo/scoring/index.js');
        process.stdout.write(`${scoreWhy(outcome.breakdown, blockerNotices(outcome.breakdown))}\n\n`);
        for (const i of issues)
          process.stdout.write(
            `${i.severity.padEnd(8)} ${i.code.padEnd(28)} ${affectedLabel(i).padStart(12)}  ${i.title}\n`,
          );
        if (comparison && baseline) {
          const change = scoreChange
            ? `; overall ${scoreChange.baseline} -> ${scoreChange.current} ` +
              `(${scoreChange.change > 0 ? '+' : ''}${scoreChange.change})`
            : '';
          process.stdout.write(
            `\ncompared with ${baseline.label}: ${comparison.new.length} new, ${comparison.fixed.length} fixed, ` +
              `${comparison.unchanged.length} unchanged occurrence(s)${change}\n`,
          );
          if (comparison.new.length) process.stdout.write(`new:\n${occurrenceLines(comparison.new)}`);
          if (comparison.fixed.length) process.stdout.write(`fixed:\n${occurrenceLines(comparison.fixed)}`);
        }
      }
      if (failUnder?.tripped) {
        console.error(`seo audit: overall score ${outcome.scores.overall} is below --fail-under ${opts.failUnder}`);
        process.exitCode = EXIT.gate;
      }
      for (const v of verdict?.verdicts ?? []) {
        if (!v.tripped) continue;
        process.stderr.write(`seo audit: --fail-on ${v.reason}\n${occurrenceLines(v.occurrences)}`);
        process.exitCode = EXIT.gate;
      }
    } finally {
      await meter?.close();
      await renderer?.close();
      await client.close();
    }
  });

program.parseAsync(process.argv).catch((err: unknown) => {
  // Commander has printed its own message (or the help, or the version) already.
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.failed);
  const message = err instanceof Error ? err.message : String(err);
  console.error(`error: ${message}`);
  process.exit(err instanceof DomainError && err.code === 'BAD_USER_INPUT' ? EXIT.failed : 1);
});

/** 1,170: counts in human output are grouped by thousands, as in the app and the PDF. */
function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1,170 URLs crawled · 1,169 HTML pages · 1,169 indexable": the three counts, named as on every surface. */
function countsLine(c: AuditCounts): string {
  const urls = `${formatCount(c.urlsCrawled)} URL${c.urlsCrawled === 1 ? '' : 's'} crawled`;
  const pages = `${formatCount(c.htmlPages)} HTML page${c.htmlPages === 1 ? '' : 's'}`;
  return `${urls} · ${pages} · ${formatCount(c.indexablePages)} indexable`;
}

/** What the audit checked of what it found, each cap as "N of M". */
function coverageLine(c: AuditCounts): string {
  const e = c.externalLinks;
  const unchecked = [
    e.couldNotCheck ? `${formatCount(e.couldNotCheck)} could not be checked` : '',
    e.found - e.checked - e.couldNotCheck > 0 ? `${formatCount(e.found - e.checked - e.couldNotCheck)} not tried` : '',
  ].filter(Boolean);
  return (
    `checked: external links ${formatCount(e.checked)} of ${formatCount(e.found)}` +
    (unchecked.length ? ` (${unchecked.join(', ')})` : '') +
    ` · resources ${formatCount(c.resources.checked)} of ${formatCount(c.resources.found)}` +
    ` · lab vitals ${formatCount(c.labPages.measured)} of ${formatCount(c.labPages.eligible)} pages`
  );
}

/**
 * An issue's extent: its affected pages ("1,170 pages"), or "site" for a site-level check (charged once), with the
 * pages it names when there are several ("site, 4 pages": duplicate titles).
 */
function affectedLabel(i: { scope: string; affectedPages: number }): string {
  const pages = `${formatCount(i.affectedPages)} page${i.affectedPages === 1 ? '' : 's'}`;
  if (i.scope === 'site') return i.affectedPages > 1 ? `site, ${pages}` : 'site';
  return pages;
}

/**
 * The "why this score" line: health, the blocker cap, and the breakdown's first three costs (most severe first,
 * site-level first within a severity: docs/scores.md).
 */
function scoreWhy(b: ScoreBreakdown, blockers: readonly BlockerNotice[]): string {
  const top = b.costs
    .slice(0, 3)
    .map((c) => `${c.code} -${Number(c.points.toFixed(1))} ${c.category.toLowerCase()}`)
    .join(', ');
  return (
    `health ${b.health}% (${formatCount(b.htmlPages - b.pagesWithCritical)} of ${formatCount(b.htmlPages)} HTML ` +
    `page${b.htmlPages === 1 ? '' : 's'} without a critical issue)` +
    (b.cappedFrom !== null ? `; capped at 50 from ${b.cappedFrom}: ${blockers.map((n) => n.message).join(' ')}` : '') +
    (top ? `; first: ${top}` : '')
  );
}
