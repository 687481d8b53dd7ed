import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrawleeJob, CrawleeResult } from './audit-crawlee-crawl.js';
import { benchEntry } from './compiled.js';

const CRAWL = benchEntry('audit-crawlee-crawl');

/**
 * One crawlee run in a fresh child process. Its storage is in memory (persistStorage: false); the storage
 * directory still points at a throw-away folder so that nothing can land in the repository.
 */
export async function runCrawlee(job: CrawleeJob, timeoutMs: number): Promise<CrawleeResult> {
  const storage = mkdtempSync(join(tmpdir(), 'bench-crawlee-'));
  const child = fork(CRAWL.path, [], {
    execArgv: CRAWL.execArgv,
    env: { ...process.env, CRAWLEE_STORAGE_DIR: storage, CRAWLEE_PERSIST_STORAGE: 'false' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await new Promise<CrawleeResult>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`crawlee child exited with code ${code}`)));
      child.once('message', (m: CrawleeResult) => resolve(m));
      timer = setTimeout(() => reject(new Error(`crawlee did not finish within ${timeoutMs} ms`)), timeoutMs);
      child.send(job);
    });
    if (result.error) throw new Error(`crawlee run failed: ${result.error}`);
    return result;
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(storage, { recursive: true, force: true });
  }
}
