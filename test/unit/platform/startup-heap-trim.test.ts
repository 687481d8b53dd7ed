import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const module = resolve(import.meta.dirname, '../../../src/platform/startup-heap-trim.ts');

/**
 * A fresh process that grows its heap as a boot does (objects no longer referenced afterwards), then idles 600 ms,
 * with or without the trim 50 ms in: its V8 heap at the end and what the trim logged. A process of its own, since a
 * test runner's own allocations would collect the garbage whatever the trim does.
 */
async function idleAfterBoot(trim: boolean): Promise<{ heapMb: number; logged: Record<string, unknown>[] }> {
  const script = `
    const { getHeapStatistics } = await import('node:v8');
    const { trimHeapAfterStart } = await import(${JSON.stringify(module)});
    const logged = [];
    const logger = { debug: (o, msg) => logged.push({ ...o, msg }), warn: (o, msg) => logged.push({ ...o, msg }) };
    let boot = Array.from({ length: 600000 }, (_, i) => ({ i, s: 'module ' + i }));
    boot.length;
    boot = null;
    if (${trim}) trimHeapAfterStart(logger, 50);
    setTimeout(() => {
      console.log(JSON.stringify({ heapMb: getHeapStatistics().total_heap_size / 1048576, logged }));
    }, 600);
  `;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: resolve(import.meta.dirname, '../../..'),
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { heapMb: number; logged: Record<string, unknown>[] };
}

describe('trimHeapAfterStart', () => {
  it('gives back, once, the heap an idle process would keep after its boot', async () => {
    const [kept, trimmed] = await Promise.all([idleAfterBoot(false), idleAfterBoot(true)]);
    expect(kept.logged).toEqual([]);
    expect(trimmed.logged).toHaveLength(1);
    expect(trimmed.logged[0]).toMatchObject({ msg: 'heap trimmed after start-up' });
    // The boot's ~40 MB of garbage: still in the idle process's heap without the trim (Node 20: ~80 MB in all, Node
    // 24: ~110 MB), given back with it (~40 MB on Node 20, ~6 MB on Node 24).
    expect(trimmed.heapMb).toBeLessThan(kept.heapMb - 25);
    expect(trimmed.logged[0].heapMbAfter).toBeLessThan((trimmed.logged[0].heapMbBefore as number) - 25);
  }, 30_000);
});
