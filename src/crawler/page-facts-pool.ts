import { Worker } from 'node:worker_threads';
import { extractPageFacts, type PageContext, type PageFacts } from '../seo/page/index.js';
import type { PageFactsReply, PageFactsRequest } from './page-facts.thread.js';

/** How the crawler turns a page's bytes into facts: in its own thread, or on a pool of worker threads. */
export type PageFactsExtract = (body: Buffer, context: PageContext) => PageFacts | Promise<PageFacts>;

export interface PageFactsPool {
  extract: (body: Buffer, context: PageContext) => Promise<PageFacts>;
  close(): Promise<void>;
}

export interface PageFactsPoolOptions {
  /** V8 old-space limit per thread: a page's parse is transient, so a small heap suffices. */
  maxHeapMb?: number;
  /** Called once if the threads cannot start; the pool then parses in the calling thread. */
  onDegraded?: (err: Error) => void;
  /** Another thread program (tests: threads that fail to start or crash). */
  thread?: { script: string | URL; eval: boolean };
}

interface Pending {
  resolve: (facts: PageFacts) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Settles true once the thread has loaded and listens, false if it exits first. */
  ready: Promise<boolean>;
  pending: Map<number, Pending>;
}

const FROM_SOURCES = import.meta.url.endsWith('.ts');
const THREAD_ENTRY = new URL(`./page-facts.thread${FROM_SOURCES ? '.ts' : '.js'}`, import.meta.url);

/**
 * The compiled thread file; from TypeScript sources (tests, tsx) a bootstrap that registers tsx in the thread first.
 */
function threadScript(): { script: string | URL; eval: boolean } {
  if (!FROM_SOURCES) return { script: THREAD_ENTRY, eval: false };
  const tsx = import.meta.resolve('tsx/esm/api');
  return {
    script:
      `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return ` +
      `import(${JSON.stringify(THREAD_ENTRY.href)}); });`,
    eval: true,
  };
}

/**
 * HTML parsing is most of an audit's CPU and a pure function of the response: a pool of worker threads
 * runs it beside the crawl loop (fetching, checks, persistence), so an audit uses a second core. Requests
 * go to the thread with the fewest in flight; the body's memory is transferred, not copied, when the
 * Buffer owns it. A thread that dies fails only the pages it held and is replaced; threads that cannot
 * start at all leave the pool parsing in the calling thread.
 */
export function createPageFactsPool(size: number, options: PageFactsPoolOptions = {}): PageFactsPool {
  let nextId = 1;
  let closed = false;
  let degraded = false;
  const slots: Slot[] = [];

  const degrade = (code: number) => {
    if (degraded) return;
    degraded = true;
    options.onDegraded?.(
      new Error(`page analysis threads did not start (exit code ${code}); parsing in the calling thread`),
    );
  };

  const spawn = (index: number): Slot => {
    const { script, eval: isEval } = options.thread ?? threadScript();
    const worker = new Worker(script, {
      eval: isEval,
      resourceLimits: options.maxHeapMb ? { maxOldGenerationSizeMb: options.maxHeapMb } : undefined,
    });
    let started = false;
    let settleReady!: (ready: boolean) => void;
    const slot: Slot = {
      worker,
      pending: new Map(),
      ready: new Promise<boolean>((resolve) => (settleReady = resolve)),
    };
    worker.on('message', (reply: PageFactsReply) => {
      if ('ready' in reply) {
        started = true;
        settleReady(true);
        return;
      }
      const waiting = slot.pending.get(reply.id);
      if (!waiting) return;
      slot.pending.delete(reply.id);
      if (slot.pending.size === 0) worker.unref();
      if ('error' in reply) waiting.reject(new Error(`page analysis failed: ${reply.error}`));
      else waiting.resolve(reply.facts);
    });
    const fail = (err: Error) => {
      for (const waiting of slot.pending.values()) waiting.reject(err);
      slot.pending.clear();
    };
    worker.on('error', (err) => fail(err instanceof Error ? err : new Error(String(err))));
    worker.on('exit', (code) => {
      settleReady(false);
      fail(new Error(`page analysis thread exited (code ${code})`));
      if (closed) return;
      if (started) slots[index] = spawn(index);
      else degrade(code);
    });
    // Only a thread with work in flight keeps the process alive.
    worker.unref();
    return slot;
  };
  for (let i = 0; i < Math.max(1, size); i++) slots.push(spawn(i));

  return {
    async extract(body, context) {
      if (closed) throw new Error('page analysis pool is closed');
      let slot = slots[0];
      for (const s of slots) if (s.pending.size < slot.pending.size) slot = s;
      if (degraded || !(await slot.ready)) return extractPageFacts(body, context);
      const id = nextId++;
      // Transfer when the Buffer is the whole ArrayBuffer (Buffer.concat of a page); copy pooled slices.
      const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
      const bytes = owned ? new Uint8Array(body.buffer, 0, body.byteLength) : new Uint8Array(body);
      const message: PageFactsRequest = { id, body: bytes, context };
      return new Promise<PageFacts>((resolve, reject) => {
        if (slot.pending.size === 0) slot.worker.ref();
        slot.pending.set(id, { resolve, reject });
        slot.worker.postMessage(message, [bytes.buffer as ArrayBuffer]);
      });
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

/** In the calling thread: for one-off audits and tests, or when no thread is configured. */
export const extractInline: PageFactsExtract = extractPageFacts;
