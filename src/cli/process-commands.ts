import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import type { RunApiProcess } from '../platform/api-in-process.js';
import type { AppConfig } from '../platform/config.js';
import { DomainError } from '../platform/errors.js';
import { logLevelOf } from '../platform/log-level.js';
import { isReadyMessage } from '../platform/ready-signal.js';
import { supervise, type Supervisor } from '../platform/supervisor.js';
import { config, lazy, print, withOrm, type CliRoot } from './cli-runtime.js';

/** The folder the platform's entry points are found under: the repository (tsx), or dist/ when built. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
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
/**
 * A worker's audits compile and collect on V8's background threads: with one, a fresh worker spent ~10% more CPU per
 * audited page than with two (`npm run bench -- audit-ab`, 5,000 pages, 5 rounds: 2.542 against 2.284 ms), and ~24%
 * more than with V8's defaults. Two threads cost the idle worker about 1 MB
 * (docs/performance.md#v8-flags-of-the-worker).
 */
const WORKER_NODE_FLAGS = CHILD_NODE_FLAGS.map((f) => (f === '--v8-pool-size=1' ? '--v8-pool-size=2' : f));

/** Creates the database if missing and applies pending migrations: their names. */
export async function migrate(root: CliRoot, cfg: AppConfig): Promise<string[]> {
  const { ensureDatabase, migrateUp } = await lazy.orm();
  const created = await ensureDatabase(cfg.DATABASE_URL);
  if (created) console.error(`created database ${new URL(cfg.DATABASE_URL).pathname.slice(1)}`);
  return withOrm(root, cfg, migrateUp);
}

function spawnEntry(entry: string, name: string, onReady: (url?: string) => void): ChildProcess {
  const file = resolve(root, `${entry}.${runningTs ? 'ts' : 'js'}`);
  if (!existsSync(file)) throw new Error(`missing entry point ${file}`);
  const flags = entry.startsWith('workers/') ? WORKER_NODE_FLAGS : CHILD_NODE_FLAGS;
  const args = [...flags, ...(runningTs ? ['--import', 'tsx'] : []), file];
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
 * Runs the entry points under the supervisor (src/platform/supervisor.ts). Once every one of them is up (and the
 * API listens: `apiUrl`), one plain line says where to open the platform. Returns the group, and the callback the
 * API started in this process (`seo start`) calls once it listens.
 */
async function superviseEntries(
  entries: { entry: string; name: string }[],
  withApi: 'child' | 'in-process' | 'none',
): Promise<{ group: Supervisor; apiListening: (url: string) => void }> {
  const log = (await lazy.logger()).createLogger({ level: logLevelOf(process.env), name: 'supervisor' });
  const ready = new Set<string>();
  const expected = entries.length + (withApi === 'in-process' ? 1 : 0);
  let url: string | undefined;
  let announced = false;
  const onReady = (name: string, childUrl?: string) => {
    ready.add(name);
    url = childUrl ?? url;
    if (announced || ready.size < expected || (withApi !== 'none' && !url)) return;
    announced = true;
    if (url) process.stdout.write(`Ready: open ${url}\n`);
  };
  const group = supervise(
    entries.map(({ entry, name }) => ({
      name,
      start: () => spawnEntry(entry, name, (childUrl) => onReady(name, childUrl)),
    })),
    { log },
  );
  return { group, apiListening: (apiUrl) => onReady('api', apiUrl) };
}

/** `seo serve` and `seo worker`: a supervisor process over its children until SIGINT/SIGTERM. */
async function superviseUntilSignal(entries: { entry: string; name: string }[]): Promise<void> {
  const { group } = await superviseEntries(entries, entries.some((e) => e.entry === API_ENTRY) ? 'child' : 'none');
  process.on('SIGINT', () => group.stop('SIGINT'));
  process.on('SIGTERM', () => group.stop('SIGTERM'));
  void group.done.then((code) => process.exit(code));
}

/**
 * `seo start`'s processes: the API runs in this process and supervises the worker. The API entry is loaded by path,
 * as `serve` spawns it (src/ never imports facades/), and called with the worker group as its companions
 * (src/platform/api-in-process.ts): one Node process fewer than a supervisor over both (~40 MB resident).
 */
async function runApiWithWorkers(): Promise<void> {
  const { group, apiListening } = await superviseEntries([ALL_QUEUES_WORKER], 'in-process');
  const file = resolve(root, `${API_ENTRY}.${runningTs ? 'ts' : 'js'}`);
  if (!existsSync(file)) throw new Error(`missing entry point ${file}`);
  const { runApiProcess } = (await import(pathToFileURL(file).href)) as { runApiProcess: RunApiProcess };
  await runApiProcess({ companions: group, onListening: apiListening });
}

/** `seo migrate` as a child process; its JSON answer's `applied`, or the child's exit code as a failure. */
function migrateInChild(entryFile: string): Promise<string[]> {
  const child = spawn(process.execPath, [...(runningTs ? ['--import', 'tsx'] : []), entryFile, 'migrate'], {
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

/** `seo migrate`, `serve`, `worker` and `start`: the database's schema and the platform's processes. */
export function registerProcessCommands(program: Command, cliRoot: CliRoot): void {
  program
    .command('migrate')
    .description('create the database if missing and apply pending migrations')
    .action(async () => {
      const applied = await migrate(cliRoot, await config());
      print({ applied });
    });

  program
    .command('serve')
    .description('run the API process (no migrations)')
    .action(() => superviseUntilSignal([{ entry: API_ENTRY, name: 'api' }]));

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
      return superviseUntilSignal(
        queues.length ? [...new Set(queues)].map((q) => QUEUE_WORKERS[q]) : [ALL_QUEUES_WORKER],
      );
    });

  program
    .command('start')
    .description('apply migrations, then run the API and the workers')
    .action(async () => {
      // In a child process: the migrations' code and connections do not stay in the API's memory. A bad
      // configuration ends `seo migrate` with code 2 and its message, and `start` with it.
      const applied = await migrateInChild(cliRoot.entryFile);
      (await lazy.logger())
        .createLogger({ level: logLevelOf(process.env), name: 'start' })
        .info({ applied }, 'migrations applied');
      await runApiWithWorkers();
    });
}
