/**
 * Idle memory of the platform as `npm start` runs it: builds what changed (like `npm start`), starts the start
 * script's command (`node --max-semi-space-size=2 --v8-pool-size=1 dist/src/cli.js start`) on its own
 * database and Redis prefix, waits until /ready answers, lets it idle
 * (BENCH_MEMORY_IDLE_S, default 30 s), then sums the resident set size (VmRSS) of that process (the API, which
 * supervises the worker) and every process below it (the worker), and their proportional set size (PSS) beside
 * it. Budget, on the RSS sum: BENCH_MEMORY_BUDGET_MB (default 250, the goal of issue 51).
 *
 *   npm run bench -- memory
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';

const ROOT = resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

interface Proc {
  pid: number;
  ppid: number;
  name: string;
  rssKb: number;
  /** Proportional set size: pages shared with other processes (the node binary, libraries) divided among them. */
  pssKb: number;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const rssKb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    const pssKb = Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    const role = env.find((e) => e.startsWith('SEO_PROCESS='))?.slice('SEO_PROCESS='.length);
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return { pid, ppid, name: role ?? (cmd.endsWith(' start') ? 'api (seo start)' : cmd.slice(0, 60)), rssKb, pssKb };
  } catch {
    return null;
  }
}

/** The process and all its descendants, from /proc. */
function tree(root: number): Proc[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => !!p);
  const out: Proc[] = [];
  const walk = (pid: number) => {
    const p = all.find((x) => x.pid === pid);
    if (!p) return;
    out.push(p);
    for (const c of all.filter((x) => x.ppid === pid)) walk(c.pid);
  };
  walk(root);
  return out;
}

export async function runMemoryBench(): Promise<{ ok: boolean }> {
  const idleS = Number(process.env.BENCH_MEMORY_IDLE_S ?? 30);
  const budgetMb = Number(process.env.BENCH_MEMORY_BUDGET_MB ?? 250);
  const log = (line: string) => process.stderr.write(`[bench:memory] ${line}\n`);

  log('building what changed (as npm start does)');
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'src/platform/build/incremental-build.ts', 'all'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (build.status !== 0) throw new Error('build failed');

  const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const dbName = `seo_audit_bench_memory_${process.pid}`;
  const databaseUrl = new URL(base);
  databaseUrl.pathname = `/${dbName}`;
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench-memory-${process.pid}`;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl.href,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  // Exactly what `npm start` gives the platform: no NODE_ENV, no bench settings.
  delete env.NODE_ENV;

  // The command of package.json's start script after its build step, e.g. `node <flags> dist/src/cli.js start`.
  const script = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  const [node, ...args] = script.split('&&').pop()!.trim().split(/\s+/);
  if (node !== 'node') throw new Error(`unexpected start script: ${script}`);
  const output: string[] = [];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  let rows: Proc[];
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the platform exited (${child.exitCode}):\n${output.join('')}`);
      const ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      const workers = (output.join('').match(/worker ready/g) ?? []).length;
      if (ready && workers >= 1) break;
      if (Date.now() > deadline) throw new Error(`not ready within 120 s:\n${output.join('')}`);
      await sleep(250);
    }
    log(`ready; idling ${idleS} s`);
    await sleep(idleS * 1000);
    rows = tree(child.pid!);
  } finally {
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(20_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
    const admin = new pg.Client({ connectionString: base.href });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }

  // The budget holds the sum of RSS, which counts a page shared by several processes (the node binary's code,
  // ~30-45 MB in each) once per process: the stricter figure. PSS divides shared pages among their sharers and
  // sums to what the group costs the machine.
  const mb = (kb: number) => Math.round(kb / 102.4) / 10;
  const totalMb = mb(rows.reduce((s, p) => s + p.rssKb, 0));
  const totalPssMb = mb(rows.reduce((s, p) => s + p.pssKb, 0));
  const table = rows.map(
    (p) =>
      `  ${p.name.padEnd(24)} pid ${String(p.pid).padStart(7)}  RSS ${mb(p.rssKb).toFixed(1).padStart(6)} ` +
      `MB  PSS ${mb(p.pssKb).toFixed(1).padStart(6)} MB`,
  );
  process.stdout.write(
    `Idle memory of \`node ${args.join(' ')}\` after ${idleS} s (${process.version}):\n${table.join('\n')}\n` +
      (`  ${'total'.padEnd(24)}              RSS ${totalMb.toFixed(1).padStart(6)} MB  ` +
        `PSS ${totalPssMb.toFixed(1).padStart(6)} MB (budget: RSS ${budgetMb} MB)\n`),
  );
  // The API and at least one worker were measured.
  const ok = totalMb <= budgetMb && rows.length >= 2;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'memory',
      node: process.version,
      idleSeconds: idleS,
      totalMb,
      totalPssMb,
      budgetMb,
      processes: rows.map((p) => ({ name: p.name, rssMb: mb(p.rssKb), pssMb: mb(p.pssKb) })),
      ok,
    })}\n`,
  );
  return { ok };
}
