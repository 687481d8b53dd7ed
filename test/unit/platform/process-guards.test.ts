import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

/** A process with the guards installed that then fails as `body` says; its exit code and log lines. */
function runGuarded(body: string): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
  const script = `
    import { createLogger } from './src/platform/logger.ts';
    import { exitOnUnhandledErrors } from './src/platform/process-guards.ts';
    exitOnUnhandledErrors(createLogger({ level: 'info', name: 'guarded' }), 'test process');
    setInterval(() => undefined, 1_000); // a live handle, as a server or a worker has: the exit is the guard's
    ${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  return new Promise((done) =>
    child.on('exit', (code) =>
      done({
        code,
        lines: out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      }),
    ),
  );
}

describe('a long-running process on an error nothing handled (BullMQ production checklist)', () => {
  it.each([
    [
      'an unhandled promise rejection',
      "Promise.reject(new Error('nobody catches this'));",
      'unhandled promise rejection',
    ],
    [
      'an uncaught exception',
      "setTimeout(() => { throw new Error('nobody catches this'); }, 10);",
      'uncaught exception',
    ],
  ])(
    '%s: one structured fatal line, then exit 1 for the supervisor to restart it',
    async (_what, body, kind) => {
      const { code, lines } = await runGuarded(body);
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 60, name: 'guarded', kind, err: { message: 'nobody catches this' } });
      expect(lines[0].msg).toBe(`${kind}: the test process exits to be started afresh`);
    },
    30_000,
  );
});
