import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrawleeJob, CrawleeResult } from './audit-crawlee-crawl.js';
import type { FloorJob, FloorResult } from './audit-floor-crawl.js';
import { benchEntry } from './compiled.js';

/** One job in a fresh child process of a bench entry (`process.once('message')`, one reply, exit). */
async function runChild<R extends { error?: string }>(
  entry: string,
  job: unknown,
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<R> {
  const { path, execArgv } = benchEntry(entry);
  const child = fork(path, [], { execArgv, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await new Promise<R>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`${entry} child exited with code ${code}`)));
      child.once('message', (m: R) => resolve(m));
      timer = setTimeout(() => reject(new Error(`${entry} did not finish within ${timeoutMs} ms`)), timeoutMs);
      child.send(job as object);
    });
    if (result.error) throw new Error(`${entry} run failed: ${result.error}`);
    return result;
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
  }
}

/**
 * One crawlee run in a fresh child process. Its storage is in memory (persistStorage: false); the storage
 * directory still points at a throw-away folder so that nothing can land in the repository.
 */
export async function runCrawlee(job: CrawleeJob, timeoutMs: number): Promise<CrawleeResult> {
  const storage = mkdtempSync(join(tmpdir(), 'bench-crawlee-'));
  try {
    return await runChild<CrawleeResult>('audit-crawlee-crawl', job, timeoutMs, {
      ...process.env,
      CRAWLEE_STORAGE_DIR: storage,
      CRAWLEE_PERSIST_STORAGE: 'false',
    });
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}

/** One run of the floor (fetch and tokenize only, audit-floor-crawl.ts) in a fresh child process. */
export const runFloor = (job: FloorJob, timeoutMs: number): Promise<FloorResult> =>
  runChild<FloorResult>('audit-floor-crawl', job, timeoutMs);
