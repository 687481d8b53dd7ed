import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The API process entry of the tsc output, as `seo serve` and `npm start` run it. */
const API_ENTRY = 'dist/facades/main.js';

export interface ApiProcess {
  baseUrl: string;
  pid: number;
  /** Whether the process is still running (a load that fails after it died is not the page's fault). */
  alive(): boolean;
  /** Its stdout and stderr so far (LOG_LEVEL=warn: warnings and errors only). */
  output(): string;
  /** SIGTERM (graceful close), SIGKILL after 15 s; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** A port the kernel reports free right now (the API binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node dist/facades/main.js` with exactly the given environment (plus PATH and HOME), so that no
 * variable of the caller's shell (a DATABASE_URL, a PUBLIC_URL) leaks in, and waits until /readyz answers 200.
 */
export async function startApiProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ApiProcess> {
  const host = env.HOST ?? '127.0.0.1';
  const baseUrl = `http://${host}:${env.PORT}`;
  const child = spawn(process.execPath, [API_ENTRY], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout.on('data', (d) => chunks.push(String(d)));
  child.stderr.on('data', (d) => chunks.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (alive()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => alive() && child.kill('SIGKILL'), 15_000);
      timer.unref();
    }
    return exited;
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive())
      throw new Error(
        `the API process exited (code ${child.exitCode ?? child.signalCode}) before it was ready:\n${chunks.join('')}`,
      );
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the API process was not ready within ${timeoutMs} ms:\n${chunks.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { baseUrl, pid: child.pid!, alive, output: () => chunks.join(''), stop };
}
