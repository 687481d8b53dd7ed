import { Worker } from 'node:worker_threads';
import { EXTRACTION_LIMITS } from '../seo/extraction/index.js';
import { extractPageFacts, type PageContext, type PageFacts } from '../seo/page/index.js';
import type { PageFactsReply, PageFactsRequest, PageFactsThreadData } from './page-facts.thread.js';
import { PageWatchReader, Watchdog } from './page-facts-watch.js';

/** How the crawler turns a page's bytes into facts: in its own thread, or on a pool of worker threads. */
export type PageFactsExtract = (body: Buffer, context: PageContext) => PageFacts | Promise<PageFacts>;

export interface PageFactsPool {
  extract: (body: Buffer, context: PageContext) => Promise<PageFacts>;
  close(): Promise<void>;
}

/** A thread stopped on a page's extractors (the page is analysed again without the one it was stuck in). */
export interface PageFactsStop {
  url: string;
  /** The index, in the page's extractor specs, of the extractor that overran. */
  extractor: number;
  /** How long the page's extractors had run when the thread was stopped. */
  elapsedMs: number;
}

export interface PageFactsPoolOptions {
  /** V8 old-space limit per thread: a page's parse is transient, so a small heap suffices. */
  maxHeapMb?: number;
  /** Called once if the threads cannot start; the pool then parses in the calling thread. */
  onDegraded?: (err: Error) => void;
  /** Called when a thread is stopped past a page's extraction budget and its margin. */
  onStopped?: (stop: PageFactsStop) => void;
  /** The hard bound's margin past a page's extraction budget (EXTRACTION_LIMITS.stopMarginMs). */
  stopMarginMs?: number;
  /** Another thread program (tests: threads that fail to start or crash). */
  thread?: { script: string | URL; eval: boolean };
}

/** A page in the pool's hands, until its facts are in. */
interface Job {
  context: PageContext;
  /**
   * The page's bytes while `kept` (the thread got a copy: if it is stopped, the page is sent again or analysed here);
   * otherwise they went to the thread and this is empty.
   */
  body: Buffer;
  kept: boolean;
  /** How long the page's extractors may run before its thread is stopped; null without extractors. */
  limitMs: number | null;
  resolve: (facts: PageFacts) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Settles true once the thread has loaded and listens, false if it exits first. */
  ready: Promise<boolean>;
  pending: Map<number, Job>;
  /** Where the thread shows the page whose extractors it runs. */
  watch: PageWatchReader;
  /** Pages in `pending` with extractors: the watchdog reads this thread's watch while there are any. */
  watched: number;
  /** Set once the pool stopped the thread: the page it was stuck on and in which extractor. */
  stopped: { page: number; extractor: number } | null;
  exited: boolean;
}

const EMPTY = Buffer.alloc(0);

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** In the calling thread: the pool is degraded, or a stopped page's second analysis. */
function inline(job: Job, context = job.context): void {
  try {
    job.resolve(extractPageFacts(job.body, context));
  } catch (err) {
    job.reject(asError(err));
  }
}

/** The bytes posted to a thread for a job: a copy when the job keeps its own (`keep`), else the job's memory. */
function bytesFor(job: Job, keep: boolean): Uint8Array {
  // Kept: the thread may be stopped on this page or one before it, and this page must not be lost with it.
  if (keep) {
    job.kept = true;
    return new Uint8Array(job.body);
  }
  // Transfer when the Buffer is the whole ArrayBuffer (Buffer.concat of a page); copy pooled slices.
  const body = job.body;
  job.body = EMPTY;
  const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
  return owned ? new Uint8Array(body.buffer, 0, body.byteLength) : new Uint8Array(body);
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
 *
 * The hard bound of custom extraction: a page's extractors check their budget between extractors only, and one
 * extractor (a regex that backtracks) cannot be interrupted inside its thread. A watchdog reads, in memory shared
 * with each thread, which page's extractors it runs and since when; a thread still on them past the page's budget
 * plus the margin is terminated (which stops the regex) and replaced. The page is analysed again at once in the
 * calling thread with the extractor it was stuck in and those after it `'timeout'` (the ones before it run again:
 * they had finished within the budget), and the other pages that thread held are sent again. A page with
 * extractors, or sent behind one, keeps its bytes here for that (a copy goes to the thread).
 */
export function createPageFactsPool(size: number, options: PageFactsPoolOptions = {}): PageFactsPool {
  let nextId = 1;
  let closed = false;
  let degraded = false;
  const slots: Slot[] = [];
  const marginMs = options.stopMarginMs ?? EXTRACTION_LIMITS.stopMarginMs;
  // The watchdog's period: the bound holds to within it.
  const tickMs = Math.min(50, Math.max(5, Math.round(marginMs / 5)));

  const degrade = (code: number) => {
    if (degraded) return;
    degraded = true;
    options.onDegraded?.(
      new Error(`page analysis threads did not start (exit code ${code}); parsing in the calling thread`),
    );
  };

  const take = (slot: Slot, id: number): Job | undefined => {
    const job = slot.pending.get(id);
    if (!job) return undefined;
    slot.pending.delete(id);
    if (job.limitMs !== null) slot.watched--;
    if (slot.pending.size === 0) slot.worker.unref();
    return job;
  };

  /** After a stopped thread exited (its replies sent before the stop delivered): the pages it still held. */
  const resume = (slot: Slot, stopped: NonNullable<Slot['stopped']>) => {
    const jobs = [...slot.pending];
    slot.pending.clear();
    slot.watched = 0;
    for (const [id, job] of jobs) {
      if (id === stopped.page) {
        const extraction = job.context.extraction!;
        const timedOutFrom = Math.min(stopped.extractor, extraction.timedOutFrom ?? Number.POSITIVE_INFINITY);
        inline(job, { ...job.context, extraction: { ...extraction, timedOutFrom } });
      } else if (job.kept) void send(job);
      // Not kept: sent before the stopped page, so its reply came before the exit; cannot happen, but never hang.
      else job.reject(new Error('page analysis thread was stopped'));
    }
  };

  const stop = (index: number, slot: Slot, page: number, extractor: number, elapsedMs: number) => {
    slot.stopped = { page, extractor };
    options.onStopped?.({ url: slot.pending.get(page)!.context.url, extractor, elapsedMs });
    // The replacement starts now; the stopped thread's pages are taken care of once it has exited (resume).
    slots[index] = spawn(index);
    void slot.worker.terminate();
  };

  // Reads the threads' watches while one has a page with extractors; stops a thread past its page's bound.
  const watchdog = new Watchdog(tickMs, () => {
    let watching = false;
    slots.forEach((slot, index) => {
      if (slot.watched === 0 || slot.stopped) return;
      watching = true;
      const running = slot.watch.read();
      if (!running) return;
      const job = slot.pending.get(running.page);
      if (job?.limitMs == null || running.elapsedMs <= job.limitMs) return;
      stop(index, slot, running.page, running.extractor, running.elapsedMs);
    });
    return watching;
  });

  const spawn = (index: number): Slot => {
    const { script, eval: isEval } = options.thread ?? threadScript();
    const watch = new PageWatchReader();
    const worker = new Worker(script, {
      eval: isEval,
      workerData: { watch: watch.init } satisfies PageFactsThreadData,
      resourceLimits: options.maxHeapMb ? { maxOldGenerationSizeMb: options.maxHeapMb } : undefined,
    });
    let started = false;
    let settleReady!: (ready: boolean) => void;
    const slot: Slot = {
      worker,
      pending: new Map(),
      ready: new Promise<boolean>((resolve) => (settleReady = resolve)),
      watch,
      watched: 0,
      stopped: null,
      exited: false,
    };
    worker.on('message', (reply: PageFactsReply) => {
      if ('ready' in reply) {
        started = true;
        settleReady(true);
        return;
      }
      const job = take(slot, reply.id);
      if (!job) return;
      if ('error' in reply) job.reject(new Error(`page analysis failed: ${reply.error}`));
      else job.resolve(reply.facts);
    });
    const fail = (err: Error) => {
      for (const job of slot.pending.values()) job.reject(err);
      slot.pending.clear();
      slot.watched = 0;
    };
    worker.on('error', (err) => {
      if (!slot.stopped) fail(asError(err));
    });
    worker.on('exit', (code) => {
      slot.exited = true;
      settleReady(false);
      if (slot.stopped) return resume(slot, slot.stopped);
      fail(new Error(`page analysis thread exited (code ${code})`));
      if (closed) return;
      if (started) slots[index] = spawn(index);
      else degrade(code);
    });
    // Only a thread with work in flight keeps the process alive.
    worker.unref();
    return slot;
  };

  const post = (slot: Slot, job: Job) => {
    const id = nextId;
    nextId = nextId >= 0x7fffffff ? 1 : nextId + 1;
    const bytes = bytesFor(job, job.kept || job.limitMs !== null || slot.watched > 0);
    const message: PageFactsRequest = { id, body: bytes, context: job.context };
    slot.worker.postMessage(message, [bytes.buffer as ArrayBuffer]);
    if (slot.pending.size === 0) slot.worker.ref();
    slot.pending.set(id, job);
    if (job.limitMs !== null) {
      slot.watched++;
      watchdog.start();
    }
  };

  /** To the thread with the fewest pages in flight, once it listens; here when the threads cannot start. */
  const send = async (job: Job): Promise<void> => {
    try {
      for (;;) {
        if (closed) return job.reject(new Error('page analysis pool is closed'));
        let slot = slots[0];
        for (const s of slots) if (s.pending.size < slot.pending.size) slot = s;
        if (degraded || !(await slot.ready)) return inline(job);
        // Stopped or dead while this page waited for it: its replacement is in slots now.
        if (slot.stopped || slot.exited) continue;
        return post(slot, job);
      }
    } catch (err) {
      job.reject(asError(err));
    }
  };

  for (let i = 0; i < Math.max(1, size); i++) slots.push(spawn(i));

  return {
    async extract(body, context) {
      if (closed) throw new Error('page analysis pool is closed');
      const budgetMs = context.extraction?.specs.length
        ? (context.extraction.budgetMs ?? EXTRACTION_LIMITS.pageBudgetMs)
        : null;
      const limitMs = budgetMs === null ? null : budgetMs + marginMs;
      return new Promise<PageFacts>((resolve, reject) => {
        void send({ context, body, kept: false, limitMs, resolve, reject });
      });
    },
    async close() {
      closed = true;
      watchdog.stop();
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

/** In the calling thread: for one-off audits and tests, or when no thread is configured. */
export const extractInline: PageFactsExtract = extractPageFacts;
