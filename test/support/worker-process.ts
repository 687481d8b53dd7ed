import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/**
 * A real worker process (workers/<name>.ts under tsx), as `seo worker` would run it. Its audit sweeper is off
 * unless the test turns it on (AUDIT_SWEEP_INTERVAL_MS): the sweeper adopts every active audit of the database, and
 * the test database holds other files' audits (other Redis prefixes, fixture sites long closed). A test worker that
 * swept them queued them ahead of its own test's audit: the kill -9 test timed out behind 28 of them on CI.
 */
export function startWorker(
  name: string,
  env: Record<string, string>,
): { child: ChildProcess; output: string[]; stop(signal?: NodeJS.Signals): Promise<number | null> } {
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', `workers/${name}.ts`], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', AUDIT_SWEEP_INTERVAL_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    child,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
