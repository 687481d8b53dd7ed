import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type pg from 'pg';
import type { Queue } from 'bullmq';
import { newId } from '../../src/platform/ids.js';
import { AUDIT_JOB_NAME, type AuditJobData } from '../../src/audits/audit-job.js';
import { waitFor } from '../support/worker-process.js';

/**
 * One audit through a real worker process (workers/audit.worker.ts under tsx, as `seo worker` runs it):
 * the audit row and its BullMQ job are created the way AuditService.start does, the worker crawls,
 * analyzes and writes to PostgreSQL, and its memory is sampled from /proc until the audit is done.
 */

export interface WorkerAuditOptions {
  pool: pg.Pool;
  queue: Queue<AuditJobData>;
  projectId: string;
  maxPages: number;
  env: Record<string, string>;
  /** Extra node flags for the worker (--cpu-prof, which NODE_OPTIONS refuses). */
  execArgv?: string[];
  /** A build output folder (tsc -p tsconfig.build.json): run its workers/audit.worker.js instead of tsx. */
  distDir?: string;
  /** Appends the worker's stdout/stderr to this file (diagnostics such as --trace-gc). */
  logFile?: string;
  timeoutMs: number;
  log: (line: string) => void;
  /** Keep the audit and its rows afterwards (default: deleted), e.g. to query them. */
  keep?: boolean;
  /**
   * Audits of the same project run first in the same worker process, unmeasured (default 0): the measured audit then
   * runs on code V8 has already compiled and optimized, as a long-running worker's second audit does.
   */
  warmAudits?: number;
  /** Called once the worker is up and the unmeasured audits are done, just before the measured one. */
  beforeMeasured?: () => Promise<unknown>;
}

export interface RssPoint {
  pagesCrawled: number;
  rssKb: number;
  atSec: number;
}

export interface WorkerAuditResult {
  auditId: string;
  status: string;
  attempts: number;
  error: string | null;
  pagesCrawled: number;
  /** completed_at - started_at, from the audit row: the claimed job to its COMPLETED update. */
  elapsedMs: number;
  /**
   * From adding the job to seeing the audit finished, its external verdicts in (includes queue pick-up and the 250 ms
   * poll).
   */
  observedMs: number;
  /**
   * From adding the job to seeing it COMPLETED and readable (pages, scores, issues), its external verdicts possibly
   * still to fold in: equal to observedMs when they were in at once (the 250 ms poll's precision).
   */
  readableMs: number | null;
  /** Worker process CPU (user + system) from job added to finished. */
  cpuMs: number;
  /** CPU of the worker's child processes that ended by then (a lab browser), from its /proc cutime + cstime. */
  childCpuMs: number;
  /** Epoch ms when the job was added (to align the worker's own timings). */
  jobAddedAtMs: number;
  /** Worker process spawned -> connected to its queue. */
  bootMs: number;
  /** The worker's CPU (user + system) from its start to the idle sample 500 ms after bootMs: its start-up's cost. */
  bootCpuMs: number;
  /** Status/phase changes as the 250 ms poll saw them: seconds after the job was added. */
  phases: { phase: string; atSec: number }[];
  rows: { pages: number; occurrences: number; issues: number };
  overallScore: number | null;
  rss: {
    /** After boot, before the job. */
    idleKb: number;
    /** Highest of the periodic VmRSS samples. */
    maxSampledKb: number;
    /** VmHWM read just before the worker is stopped: the kernel's true peak. */
    hwmKb: number;
    samples: number;
    /** RSS as pages accumulate, about every tenth of the run. */
    timeline: RssPoint[];
  };
}

/** Clock ticks per second for /proc/<pid>/stat utime/stime (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

interface ProcSample {
  rssKb: number;
  hwmKb: number;
  cpuMs: number;
  childCpuMs: number;
}

function readProc(pid: number): ProcSample | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th overall.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const childTicks = Number(fields[13]) + Number(fields[14]);
    return {
      rssKb: kb('VmRSS'),
      hwmKb: kb('VmHWM'),
      cpuMs: (ticks * 1000) / USER_HZ,
      childCpuMs: (childTicks * 1000) / USER_HZ,
    };
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ROOT = resolve(import.meta.dirname, '../..');

/** Like test/support/worker-process.ts startWorker, plus node flags and the option of the compiled worker. */
function startWorker(
  env: Record<string, string>,
  execArgv: string[],
  distDir?: string,
  logFile?: string,
): { child: ChildProcess; output: string[]; stop(): Promise<number | null> } {
  const output: string[] = [];
  const file = logFile ? createWriteStream(logFile, { flags: 'a' }) : null;
  const entry = distDir
    ? [resolve(ROOT, distDir, 'workers/audit.worker.js')]
    : ['--import', 'tsx', 'workers/audit.worker.ts'];
  const child = spawn(process.execPath, [...execArgv, ...entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Diagnostics can be chatty: with a log file only the tail is kept in memory.
  const keep = (d: Buffer) => {
    file?.write(d);
    output.push(String(d));
    if (file && output.length > 200) output.splice(0, output.length - 100);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((r) =>
    child.on('exit', (code) => {
      file?.end();
      r(code);
    }),
  );
  return {
    child,
    output,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

const FINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

/**
 * Deletes an audit and vacuums the tables its rows were in: with autovacuum off (as on this repository's test
 * machines) every deleted run would leave its ~30 dead link rows per page behind, and later runs' completions would
 * scan them (a 3,000-page completion took minutes after ~90 runs).
 */
async function dropAudit(pool: pg.Pool, auditId: string): Promise<void> {
  await pool.query('DELETE FROM audit WHERE id = $1', [auditId]).catch(() => undefined);
  await pool
    .query('VACUUM (ANALYZE, SKIP_LOCKED) audit_link, audit_page, issue_occurrence, audit_issue')
    .catch(() => undefined);
}

/** Inserts a QUEUED audit of the project (as AuditService.start does, max_pages set directly) and adds its job. */
async function enqueueAudit(opts: WorkerAuditOptions, auditId: string): Promise<void> {
  await opts.pool.query(
    `INSERT INTO audit (id, project_id, status, job_id, pages_crawled, pages_queued, max_pages, attempts, created_at)
     VALUES ($1, $2, 'QUEUED', $3, 0, 0, $4, 0, now())`,
    [auditId, opts.projectId, auditId, opts.maxPages],
  );
  await opts.queue.add(
    AUDIT_JOB_NAME,
    { auditId },
    {
      jobId: auditId,
      attempts: 3,
      backoff: { type: 'exponential', delay: 5_000 },
      removeOnComplete: { age: 24 * 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  );
}

/** One audit in the running worker, waited for and deleted: it leaves compiled code behind, nothing else. */
async function auditUnmeasured(opts: WorkerAuditOptions): Promise<void> {
  const auditId = newId();
  await enqueueAudit(opts, auditId);
  try {
    await waitFor(
      'the unmeasured audit to finish',
      async () => {
        const { rows } = await opts.pool.query<{ status: string; final: boolean }>(
          'SELECT status, external_links_final AS final FROM audit WHERE id = $1',
          [auditId],
        );
        return rows.length === 0 || (FINAL.has(rows[0].status) && rows[0].final);
      },
      opts.timeoutMs,
      250,
    );
  } finally {
    await dropAudit(opts.pool, auditId);
  }
}

export async function runWorkerAudit(opts: WorkerAuditOptions): Promise<WorkerAuditResult> {
  const { pool, queue } = opts;
  const spawnedAt = performance.now();
  const worker = startWorker(opts.env, opts.execArgv ?? [], opts.distDir, opts.logFile);
  const pid = worker.child.pid!;
  const auditId = newId();
  try {
    await waitFor(
      'the audit worker to connect to its queue',
      async () => (await queue.getWorkersCount()) > 0 || worker.child.exitCode !== null,
      60_000,
      100,
    );
    if (worker.child.exitCode !== null) throw new Error(`worker exited during boot:\n${worker.output.join('')}`);
    const bootMs = performance.now() - spawnedAt;
    for (let i = 0; i < (opts.warmAudits ?? 0); i++) await auditUnmeasured(opts);
    await opts.beforeMeasured?.();
    await sleep(500); // let boot-time allocations settle before the idle sample
    const idle = readProc(pid);
    if (!idle) throw new Error('cannot read /proc for the worker');

    const t0 = performance.now();
    const jobAddedAtMs = Date.now();
    await enqueueAudit(opts, auditId);

    let maxSampledKb = idle.rssKb;
    let samples = 0;
    let last: ProcSample = idle;
    const timeline: RssPoint[] = [];
    const step = Math.max(1, Math.floor(opts.maxPages / 10));
    let nextMark = step;
    let lastLog = 0;
    let row:
      | {
          status: string;
          phase: string | null;
          pages_crawled: number;
          attempts: number;
          error: string | null;
          final: boolean;
        }
      | undefined;
    let readableMs: number | null = null;
    const phases: { phase: string; atSec: number }[] = [];
    for (;;) {
      const s = readProc(pid);
      if (!s) throw new Error(`worker exited during the audit:\n${worker.output.join('').slice(-4000)}`);
      last = s;
      samples++;
      maxSampledKb = Math.max(maxSampledKb, s.rssKb);
      row = (
        await pool.query(
          `SELECT status, phase, pages_crawled, attempts, error, external_links_final AS final
           FROM audit WHERE id = $1`,
          [auditId],
        )
      ).rows[0];
      if (!row) throw new Error('the audit row disappeared');
      const atSec = (performance.now() - t0) / 1000;
      // A completed audit still waiting for its external verdicts is readable: a phase of its own here.
      const phase = row.phase ?? (row.status === 'COMPLETED' && !row.final ? 'READABLE' : row.status);
      if (phases.at(-1)?.phase !== phase) phases.push({ phase, atSec });
      if (row.status === 'COMPLETED' && readableMs === null) readableMs = atSec * 1000;
      if (row.pages_crawled >= nextMark) {
        timeline.push({ pagesCrawled: row.pages_crawled, rssKb: s.rssKb, atSec });
        while (nextMark <= row.pages_crawled) nextMark += step;
      }
      if (FINAL.has(row.status) && row.final) break;
      if (row.attempts > 1)
        throw new Error(
          `the audit was retried (attempt ${row.attempts}): ${row.error ?? ''}\n${worker.output.join('').slice(-4000)}`,
        );
      if (atSec * 1000 > opts.timeoutMs)
        throw new Error(
          `audit not finished after ${opts.timeoutMs} ms (status ${row.status}, ${row.pages_crawled} pages)`,
        );
      if (atSec - lastLog >= 15) {
        lastLog = atSec;
        opts.log(
          `  ${row.status} ${row.pages_crawled}/${opts.maxPages} pages, ` +
            `RSS ${(s.rssKb / 1024).toFixed(0)} MB, ${atSec.toFixed(0)}s`,
        );
      }
      await sleep(250);
    }
    const observedMs = performance.now() - t0;
    // The true peak, read just before the worker is asked to stop.
    const final = readProc(pid) ?? last;
    const done = (
      await pool.query(
        `SELECT status, attempts, error, pages_crawled, overall_score,
           extract(epoch FROM (completed_at - started_at)) * 1000 AS elapsed_ms,
           (SELECT count(*) FROM audit_page WHERE audit_id = $1)::int AS pages,
           (SELECT count(*) FROM issue_occurrence WHERE audit_id = $1)::int AS occurrences,
           (SELECT count(*) FROM audit_issue WHERE audit_id = $1)::int AS issues
         FROM audit WHERE id = $1`,
        [auditId],
      )
    ).rows[0];
    if (done.status !== 'COMPLETED') opts.log(`worker output:\n${worker.output.join('').slice(-4000)}`);
    return {
      auditId,
      status: done.status,
      attempts: done.attempts,
      error: done.error,
      pagesCrawled: done.pages_crawled,
      elapsedMs: Number(done.elapsed_ms),
      observedMs,
      readableMs,
      cpuMs: final.cpuMs - idle.cpuMs,
      childCpuMs: final.childCpuMs - idle.childCpuMs,
      jobAddedAtMs,
      bootMs,
      bootCpuMs: idle.cpuMs,
      phases,
      rows: { pages: done.pages, occurrences: done.occurrences, issues: done.issues },
      overallScore: done.overall_score,
      rss: {
        idleKb: idle.rssKb,
        maxSampledKb: Math.max(maxSampledKb, final.rssKb),
        hwmKb: final.hwmKb,
        samples,
        timeline,
      },
    };
  } finally {
    const code = await worker.stop();
    if (code !== 0) opts.log(`worker exited with code ${code}`);
    // The results were read above; the rows go so that every run starts from the same database.
    if (!opts.keep) await dropAudit(pool, auditId);
  }
}
