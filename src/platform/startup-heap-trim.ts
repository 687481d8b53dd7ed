import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from './logger.js';

/** How long after a process is up its heap is trimmed: start-up's last module loads and first connections are done. */
export const STARTUP_HEAP_TRIM_DELAY_MS = 5_000;

/**
 * Node 24's V8 (13) takes the collection's kind as options; Node 20's (11.3) ran a young-generation collection when
 * given the same object, and its full one is `gc()` without options (measured on both: a 600,000-object garbage heap,
 * 95 MB kept with the object on Node 20, 38 MB without it; 5.8 MB on Node 24 with the last-resort flavor, 70 MB
 * without).
 */
const READS_GC_OPTIONS = Number(process.versions.v8.split('.')[0]) >= 12;

type GcFunction = (options?: { type?: 'major' | 'minor'; execution?: 'sync' | 'async'; flavor?: string }) => void;

/**
 * V8's collector as a function, without `--expose-gc` on the command line: the flag set at run time installs `gc` in
 * contexts created after it, such as this one of vm's (the global of the process keeps none).
 */
function collector(): GcFunction {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as GcFunction;
}

/**
 * Gives back to the system, once, the memory a platform process grew while booting. Building the GraphQL schema,
 * compiling routes and loading ~3,000 modules grows the heap to over 110 MB; an idle process then allocates too
 * little to trigger a collection, and Node 24's V8 keeps that heap for good (its memory reducer, which Node 20's
 * runs, judges the allocation rate from the boot's samples and never starts). One full collection of the "last
 * resort" kind (the one V8 runs before it would fail an allocation: it compacts, shrinks the young generation and
 * releases pooled pages) after STARTUP_HEAP_TRIM_DELAY_MS gives them back: `npm run bench -- memory`, figures in
 * docs/operations.md#memory. It pauses the process once (Node 24: 80-150 ms in the worker, 150-300 ms in the API); a
 * request or job that arrives meanwhile waits that long.
 */
export function trimHeapAfterStart(logger: Logger, delayMs = STARTUP_HEAP_TRIM_DELAY_MS): void {
  const timer = setTimeout(() => {
    try {
      const before = getHeapStatistics().total_heap_size;
      const started = performance.now();
      const gc = collector();
      if (READS_GC_OPTIONS) gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      else gc();
      const after = getHeapStatistics().total_heap_size;
      logger.debug(
        { heapMbBefore: mb(before), heapMbAfter: mb(after), ms: Math.round(performance.now() - started) },
        'heap trimmed after start-up',
      );
    } catch (err) {
      // Memory only: a V8 that refuses the flag keeps its heap as it was.
      logger.warn({ err }, 'heap not trimmed after start-up');
    }
  }, delayMs);
  timer.unref();
}

const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
