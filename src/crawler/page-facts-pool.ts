import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { EXTRACTION_LIMITS } from '../seo/extraction/index.js';
import { extractPageFacts, type PageContext, type PageFacts } from '../seo/page/index.js';
import type { PageFactsReply, PageFactsRequest, PageFactsThreadData } from './page-facts.thread.js';
import { PageWatchReader, Watchdog } from './page-facts-watch.js';
import { LowPriorityAnalysis, LowPriorityPageError, LowPriorityUnavailable } from './page-analysis-process.js';

/** How the crawler turns a page's bytes into facts: in its own thread, or on a pool of worker threads. */
export type PageFactsExtract = (body: Buffer, context: PageContext) => PageFacts | Promise<PageFacts>;

export interface PageFactsPool {
  /**
   * The page's facts, analysed in a thread. `lane` names whose page it is (an audit): lanes are served in turn, and
   * one lane holds at most `perLane` threads at once. Rejects with a PageAnalysisError when the page itself could not
   * be analysed (over its time budget, out of memory, the parse threw): the page's failure, nothing more.
   */
  extract: (body: Buffer, context: PageContext, lane?: string) => Promise<PageFacts>;
  close(): Promise<void>;
}

/**
 * The bounds of one page's analysis in a thread (parse, facts and custom extractors together).
 *
 * Measured on the largest page the crawler analyses (5 MiB, crawl's PAGE_BYTES_CAP) made of the smallest elements
 * (`<i></i>` × 750,000) with a CSS extractor `*` (which makes the parse build a document tree): it needs between 128
 * and 192 MB of heap (out of memory at 128, done in 5.4 s at 192, 3.5 s at 256). Without extractors the worst 5 MiB
 * page measured (`<b>` × 1,750,000, flattened past the nesting cap) takes 2.7 s and under 256 MB. Pages that need more
 * memory than that also need more time than the budget (`<p>x` × 1,300,000 with a CSS extractor: 11.7 s with a 2 GB
 * heap), so they fail on one bound or the other, and only they do.
 */
export const PAGE_ANALYSIS_LIMITS = {
  /** V8 old-space limit of each analysis thread, in MB: the measured worst case above with margin. */
  heapMb: 256,
  /** Wall time one page's analysis may take in its thread before the thread is stopped: ~3× the worst measured. */
  budgetMs: 10_000,
  /**
   * Wall time after which a page's analysis gives way to everyone else's: its thread drops to the lowest CPU priority
   * (nice 19) for the rest of that page. An ordinary page takes 5-50 ms; a page past this runs on the CPU the other
   * audits leave, so it delays its own audit only (the parse-neighbour drill).
   */
  yieldAfterMs: 250,
  /**
   * How long after the end of its last page that gave way an audit's pages keep going to threads at the lowest
   * priority from their first millisecond: a site of costly pages then pays those 250 ms at the process's priority
   * once, not on every page. Alone on the machine, such threads still get every core the others leave.
   */
  lowPriorityForMs: 60_000,
} as const;

/** The nice value of a thread whose page ran past yieldAfterMs, and of the threads of its audit after it. */
const LOW_NICE = 19;

/**
 * A page that could not be analysed: its thread ran out of memory or time on it, or the parse threw. The crawl
 * records it as that page's failure (its `error`), and goes on.
 */
export class PageAnalysisError extends Error {
  override name = 'PageAnalysisError';
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
  /** V8 old-space limit per thread (PAGE_ANALYSIS_LIMITS.heapMb). */
  maxHeapMb?: number;
  /** Wall time of one page's analysis before its thread is stopped and the page failed (PAGE_ANALYSIS_LIMITS). */
  pageBudgetMs?: number;
  /** Threads one lane (an audit) may hold at once; all of them by default. */
  perLane?: number;
  /** Wall time of a page's analysis after which its thread drops to the lowest CPU priority (PAGE_ANALYSIS_LIMITS). */
  yieldAfterMs?: number;
  /** Called when a thread drops to the lowest CPU priority on a long page (tid: the thread's id in the kernel). */
  onYielded?: (yielded: { url: string; lane: string; tid: number }) => void;
  /** How long a lane's pages go to low-priority threads after one of its pages gave way (PAGE_ANALYSIS_LIMITS). */
  lowPriorityForMs?: number;
  /**
   * Called as a page goes to a thread (its kernel id, null where not told) or to the low-priority process (`pid`), and
   * at what priority.
   */
  onPosted?: (posted: { url: string; lane: string; tid: number | null; low: boolean; pid?: number | null }) => void;
  /** Called once if the threads cannot start; every page then fails with the reason (nothing is parsed here). */
  onDegraded?: (err: Error) => void;
  /** Called when a thread is stopped past a page's extraction budget and its margin. */
  onStopped?: (stop: PageFactsStop) => void;
  /** Called when a page could not be analysed (the reason is the PageAnalysisError's message). */
  onFailed?: (failure: { url: string; lane: string; reason: string }) => void;
  /** The hard bound's margin past a page's extraction budget (EXTRACTION_LIMITS.stopMarginMs). */
  stopMarginMs?: number;
  /** Another thread program (tests: threads that fail to start or crash). */
  thread?: { script: string | URL; eval: boolean };
  /**
   * The pages of audits whose page gave way are analysed in a child process at nice 19 (LowPriorityAnalysis), where
   * V8's garbage collection of them is at that priority too, not in threads of this process; a page that gives way
   * is stopped and handed to it. Where that process cannot start, such pages run in low-priority threads here.
   */
  lowPriorityProcess?: boolean;
  /** Called once when the low-priority process cannot start. */
  onLowPriorityUnavailable?: (err: Error) => void;
}

/** A page in the pool's hands, until its facts are in. */
interface Job {
  context: PageContext;
  /**
   * The page's bytes; kept until its facts are in when `keep` (a page with extractors, for its second analysis; any
   * page when the low-priority process may take it over).
   */
  body: Buffer;
  lane: Lane;
  /** How long the page's extractors may run before its thread is stopped; null without extractors. */
  limitMs: number | null;
  keep: boolean;
  /** The page's second analysis, after its thread was stopped in one of its extractors. */
  second: boolean;
  resolve: (facts: PageFacts) => void;
  reject: (err: Error) => void;
}

/** One audit's pages: waiting in order, and how many are in threads. */
interface Lane {
  key: string;
  queue: Job[];
  running: number;
}

interface Slot {
  worker: Worker;
  state: 'starting' | 'idle' | 'busy' | 'gone';
  /** The page in the thread (one at a time: a thread that dies, dies on the page in hand and on no other). */
  job: Job | null;
  page: number;
  /** When the page was posted, on performance.now(). */
  since: number;
  /** Where the thread shows the page whose extractors it runs. */
  watch: PageWatchReader;
  /** What the thread reported before it exited ('error' event: out of memory, an uncaught exception). */
  error: Error | null;
  /** The thread's id in the kernel (its CPU priority is set by it); null where the platform does not tell it. */
  tid: number | null;
  /**
   * At the lowest priority (nice 19): it gave way on a long page, or was started for a lane whose page did. It serves
   * only such lanes from then on, since raising a thread's priority again needs a privilege the worker may not have.
   */
  low: boolean;
  /** Gave way on the page in hand (reported once). */
  yielded: boolean;
}

const EMPTY = Buffer.alloc(0);

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** The bytes posted to a thread: a copy when the job keeps its own, else the job's memory (transferred). */
function bytesFor(job: Job): Uint8Array {
  if (job.keep) return new Uint8Array(job.body);
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

const TOO_COMPLEX = 'Page too complex to analyse';

/** The audits' pages waiting for a thread, one lane per audit, served in turn. */
class Lanes {
  /** Lanes with pages waiting or in threads, in the order they are served. */
  private readonly order: Lane[] = [];
  private readonly byKey = new Map<string, Lane>();
  /** Where the next turn starts in `order`. */
  private turn = 0;

  constructor(private readonly perLane: number) {}

  of(key: string): Lane {
    let lane = this.byKey.get(key);
    if (!lane) {
      lane = { key, queue: [], running: 0 };
      this.byKey.set(key, lane);
      this.order.push(lane);
    }
    return lane;
  }

  /** A lane with nothing waiting and nothing in a thread is forgotten. */
  dropIfIdle(lane: Lane): void {
    if (lane.queue.length || lane.running) return;
    this.byKey.delete(lane.key);
    const at = this.order.indexOf(lane);
    this.order.splice(at, 1);
    if (this.turn > at) this.turn--;
  }

  /** A page waits in a lane (of those `which` picks) with a thread to spare. */
  waiting(which: (lane: Lane) => boolean = () => true): boolean {
    return this.order.some((l) => l.queue.length && l.running < this.perLane && which(l));
  }

  /** The next page in turn, from a lane (of those `which` picks) with a thread to spare. */
  next(which: (lane: Lane) => boolean = () => true): Job | null {
    const lanes = this.order;
    for (let i = 0; i < lanes.length; i++) {
      const at = (this.turn + i) % lanes.length;
      const lane = lanes[at];
      if (lane.queue.length && lane.running < this.perLane && which(lane)) {
        this.turn = (at + 1) % lanes.length;
        return lane.queue.shift()!;
      }
    }
    return null;
  }

  /** Every waiting page, taken out of its lane. */
  takeAll(): Job[] {
    return [...this.order].flatMap((lane) => lane.queue.splice(0));
  }
}

/**
 * A page whose thread was stopped: its failure, or null when it is to be analysed again (stopped in an extractor the
 * first time: that extractor and those after it are then `'timeout'`).
 */
function afterStop(
  job: Job,
  why: { extractor: number } | { overBudget: true },
  budgetMs: number,
): PageAnalysisError | null {
  if (!('extractor' in why))
    return new PageAnalysisError(
      `${TOO_COMPLEX}: its analysis took longer than ${budgetMs % 1000 ? `${budgetMs} ms` : `${budgetMs / 1000} s`}`,
    );
  if (job.second) return new PageAnalysisError(`${TOO_COMPLEX}: its custom extractors overran their time budget twice`);
  const extraction = job.context.extraction!;
  const timedOutFrom = Math.min(why.extractor, extraction.timedOutFrom ?? Number.POSITIVE_INFINITY);
  job.context = { ...job.context, extraction: { ...extraction, timedOutFrom } };
  job.second = true;
  return null;
}

/** A busy thread past its page's budget, or in an extractor past the extractors' bound; null while within both. */
function overrun(
  slot: Slot,
  now: number,
  budgetMs: number,
): { overBudget: true } | { extractor: number; elapsedMs: number } | null {
  if (now - slot.since > budgetMs) return { overBudget: true };
  const limitMs = slot.job!.limitMs;
  if (limitMs === null) return null;
  const running = slot.watch.read();
  if (running?.page !== slot.page || running.elapsedMs <= limitMs) return null;
  return { extractor: running.extractor, elapsedMs: running.elapsedMs };
}

/** The page to the thread, which holds it alone until it answers (or is stopped). */
function postPage(slot: Slot, job: Job, id: number): void {
  const bytes = bytesFor(job);
  const message: PageFactsRequest = { id, body: bytes, context: job.context };
  slot.state = 'busy';
  slot.job = job;
  slot.page = id;
  slot.since = performance.now();
  job.lane.running++;
  slot.worker.ref();
  slot.worker.postMessage(message, [bytes.buffer as ArrayBuffer]);
}

/** A thread the pool no longer uses (stopped, exited): out of the slots, its messages ignored. */
function releaseSlot(slots: Slot[], slot: Slot): void {
  slot.state = 'gone';
  slot.job = null;
  const at = slots.indexOf(slot);
  if (at >= 0) slots.splice(at, 1);
}

function startThread(program: { script: string | URL; eval: boolean }, heapMb: number) {
  const watch = new PageWatchReader();
  const worker = new Worker(program.script, {
    eval: program.eval,
    workerData: { watch: watch.init } satisfies PageFactsThreadData,
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  });
  return { worker, watch };
}

/** A thread out of the slots and stopped. */
function retire(slots: Slot[], slot: Slot): void {
  releaseSlot(slots, slot);
  void slot.worker.terminate();
}

function newSlot(worker: Worker, watch: PageWatchReader, low: boolean): Slot {
  const slot = { worker, state: 'starting' as const, job: null, page: 0, since: 0, watch, error: null, tid: null };
  return { ...slot, low, yielded: false };
}

/** The lanes (audits) whose page gave way lately: until when their pages go to low-priority threads. */
class LowLanes {
  private readonly until = new Map<string, number>();

  constructor(private readonly forMs: number) {}

  /** A page of the lane gave way at `now` (performance.now()). */
  mark(key: string, now: number): void {
    for (const [k, until] of this.until) if (until <= now) this.until.delete(k); // audits long gone
    this.until.set(key, now + this.forMs);
  }

  has(lane: Lane): boolean {
    const until = this.until.get(lane.key);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    this.until.delete(lane.key);
    return false;
  }
}

/**
 * The thread to start when pages wait with no idle thread of their kind (low priority or not): null when none is
 * needed or a thread is starting already; with the pool full, an idle thread of the other kind goes in its place.
 */
function threadToStart(
  slots: Slot[],
  lanes: Lanes,
  low: LowLanes,
  maxThreads: number,
): { low: boolean; replacing: Slot | null } | null {
  if (slots.some((s) => s.state === 'starting')) return null;
  for (const kind of [false, true]) {
    if (!lanes.waiting((lane) => low.has(lane) === kind)) continue;
    if (slots.length < maxThreads) return { low: kind, replacing: null };
    const spare = slots.find((s) => s.state === 'idle' && s.low !== kind);
    if (spare) return { low: kind, replacing: spare };
  }
  return null;
}

/** Drops a thread to the lowest CPU priority; false when the platform refused (it runs on at its priority). */
function lower(slot: Slot): boolean {
  if (slot.tid === null) return false;
  try {
    setPriority(slot.tid, LOW_NICE);
    return true;
  } catch {
    return false;
  }
}

/**
 * A page past yieldAfterMs gives way: its thread drops to the lowest CPU priority (if not there already: reported
 * then), and its lane's next pages go to threads at that priority.
 */
function giveWay(slot: Slot, lowLanes: LowLanes, now: number, onYielded: PageFactsPoolOptions['onYielded']): void {
  slot.yielded = true;
  lowLanes.mark(slot.job!.lane.key, now);
  if (slot.low) return;
  slot.low = true;
  // Refused, the page runs on at its priority, and its budget still bounds it.
  if (lower(slot)) onYielded?.({ url: slot.job!.context.url, lane: slot.job!.lane.key, tid: slot.tid! });
}

/** Why a thread that died on a page did: the page's failure, in words. */
function deathOf(slot: Slot, code: number, heapMb: number): PageAnalysisError {
  const err = slot.error as (Error & { code?: string }) | null;
  if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new PageAnalysisError(`${TOO_COMPLEX}: its analysis needed more than ${heapMb} MB of memory`);
  const what = err ? `: ${err.message.split('\n')[0].slice(0, 200)}` : '';
  return new PageAnalysisError(`${TOO_COMPLEX}: its analysis thread stopped (exit code ${code})${what}`);
}

/**
 * One look at the busy threads: a page past its budget, or its extractors past theirs, is stopped; one past
 * yieldAfterMs gives way (once). True while any thread is busy.
 */
function watchBusy(
  slots: Slot[],
  bounds: { budgetMs: number; yieldAfterMs: number },
  stop: (slot: Slot, why: { extractor: number; elapsedMs: number } | { overBudget: true }) => void,
  onLong: (slot: Slot, now: number) => void,
): boolean {
  let busy = false;
  const now = performance.now();
  for (const slot of [...slots]) {
    if (slot.state !== 'busy') continue;
    busy = true;
    const over = overrun(slot, now, bounds.budgetMs);
    if (over) stop(slot, over);
    else if (!slot.yielded && now - slot.since > bounds.yieldAfterMs) onLong(slot, now);
  }
  return busy;
}

/** What the low-priority process's part of a pool needs of it. */
interface LowPriorityDeps {
  options: PageFactsPoolOptions;
  limits: { maxThreads: number; perLane: number; heapMb: number; budgetMs: number };
  lanes: Lanes;
  lowLanes: LowLanes;
  slots: Slot[];
  settle(job: Job, outcome: { facts: PageFacts } | { error: Error }): void;
  pump(): void;
}

/**
 * The pool's side of the low-priority process (`lowPriorityProcess`): the pages of low lanes go to it, and a page
 * that gives way in a thread of this process is stopped and handed to it.
 */
function lowPriorityLanes({ options, limits, lanes, lowLanes, slots, settle, pump }: LowPriorityDeps) {
  const process = new LowPriorityAnalysis({
    threads: limits.maxThreads,
    ...limits,
    onUnavailable: options.onLowPriorityUnavailable,
  });
  /** A low lane's page to the process; one it cannot take (it did not start) goes back to its lane, for a thread. */
  const send = (job: Job) => {
    job.lane.running++;
    const facts = process.analyse(new Uint8Array(job.body), job.context, job.lane.key);
    options.onPosted?.({ url: job.context.url, lane: job.lane.key, tid: null, low: true, pid: process.pid });
    facts
      .then(
        (f) => settle(job, { facts: f }),
        (err: Error) => {
          if (!(err instanceof LowPriorityUnavailable))
            return settle(job, {
              error: err instanceof LowPriorityPageError ? new PageAnalysisError(err.message) : err,
            });
          job.lane.running--;
          job.lane.queue.unshift(job);
        },
      )
      .finally(pump);
  };
  return {
    available: () => !process.unavailable,
    /** Sends the low lanes' waiting pages to the process (a lane's `perLane` at once). */
    dispatch() {
      if (process.unavailable) return;
      for (let job; (job = lanes.next((lane) => lowLanes.has(lane)));) send(job);
    },
    /** A page past yieldAfterMs: its thread is stopped, and the page goes first in its lane, to the process. */
    handOver(slot: Slot, now: number) {
      const job = slot.job!;
      lowLanes.mark(job.lane.key, now);
      options.onYielded?.({ url: job.context.url, lane: job.lane.key, tid: slot.tid ?? 0 });
      retire(slots, slot);
      job.lane.running--;
      job.lane.queue.unshift(job);
      pump();
    },
    close: () => process.close(),
  };
}

/**
 * HTML parsing is most of an audit's CPU and a pure function of the response: a pool of worker threads runs it
 * beside the crawl loops (fetching, checks, persistence, the audits' heartbeats), which never parse a page
 * themselves.
 *
 * Isolation: a thread holds one page at a time, so a thread that dies (out of memory: each has a heap of
 * PAGE_ANALYSIS_LIMITS.heapMb) or is stopped (over PAGE_ANALYSIS_LIMITS.budgetMs) takes only the page in hand, which
 * fails with a PageAnalysisError ("Page too complex to analyse: …"); every other page waits in its lane, not in a
 * thread, and a replacement thread serves it. (With several pages per thread, the page that killed it could not be
 * told from those queued behind it in the same thread.)
 *
 * Fairness: each audit's pages wait in a lane of their own; an idle thread takes the next page of the lanes in turn,
 * and a lane holds at most `perLane` threads at once. With `size` at least `perLane` × the audits a process runs,
 * a page that takes its whole budget holds up only its own audit. A page past `yieldAfterMs` drops its thread to the
 * lowest CPU priority, and its audit's pages go to threads at that priority for `lowPriorityForMs` after it: the
 * costly pages of one audit run on the CPU the others leave.
 *
 * The hard bound of custom extraction: a page's extractors check their budget between extractors only, and one
 * extractor (a regex that backtracks) cannot be interrupted inside its thread. A watchdog reads, in memory shared with
 * each thread, which extractor runs and since when; a thread still on them past the page's budget plus the margin is
 * stopped, and the page is analysed a second time, first in its lane and in a thread like any page, with the extractor
 * it was stuck in and those after it `'timeout'` (the ones before it run again: they had finished within the budget).
 * A page with extractors keeps its bytes for that (a copy goes to the thread). Should the second analysis be stopped
 * too, the page fails.
 *
 * Threads start as pages need them, up to `size`. Threads that cannot start at all make every page fail with the
 * reason (onDegraded): nothing is ever parsed in the calling thread.
 */
export function createPageFactsPool(size: number, options: PageFactsPoolOptions = {}): PageFactsPool {
  let nextId = 1;
  let closed = false;
  let degraded: Error | null = null;
  const maxThreads = Math.max(1, size);
  const perLane = Math.max(1, Math.min(options.perLane ?? maxThreads, maxThreads));
  const heapMb = options.maxHeapMb ?? PAGE_ANALYSIS_LIMITS.heapMb;
  const budgetMs = options.pageBudgetMs ?? PAGE_ANALYSIS_LIMITS.budgetMs;
  const yieldAfterMs = options.yieldAfterMs ?? PAGE_ANALYSIS_LIMITS.yieldAfterMs;
  const lowLanes = new LowLanes(options.lowPriorityForMs ?? PAGE_ANALYSIS_LIMITS.lowPriorityForMs);
  const slots: Slot[] = [];
  const lanes = new Lanes(perLane);
  const marginMs = options.stopMarginMs ?? EXTRACTION_LIMITS.stopMarginMs;
  // The watchdog's period: the bounds hold to within it.
  const tickMs = Math.min(50, Math.max(5, Math.round(marginMs / 5)));

  /** A page's end, whichever way: its lane's thread is free again. */
  const settle = (job: Job, outcome: { facts: PageFacts } | { error: Error }) => {
    job.lane.running--;
    job.body = EMPTY;
    lanes.dropIfIdle(job.lane);
    if ('facts' in outcome) return job.resolve(outcome.facts);
    if (outcome.error instanceof PageAnalysisError)
      options.onFailed?.({ url: job.context.url, lane: job.lane.key, reason: outcome.error.message });
    job.reject(outcome.error);
  };

  const failAll = (err: Error) => {
    for (const job of lanes.takeAll()) {
      job.lane.running++; // settle counts it down
      settle(job, { error: err });
    }
  };

  const degrade = (code: number) => {
    if (degraded) return;
    degraded = new PageAnalysisError(`Page analysis is unavailable: its threads did not start (exit code ${code})`);
    options.onDegraded?.(
      new Error(`page analysis threads did not start (exit code ${code}); pages fail until the worker restarts`),
    );
    failAll(degraded);
  };

  const limits = { maxThreads, perLane, heapMb, budgetMs };
  const low = options.lowPriorityProcess && lowPriorityLanes({ options, limits, lanes, lowLanes, slots, settle, pump });

  const release = (slot: Slot) => releaseSlot(slots, slot);

  /** Stops a thread on the page in hand: the page is failed, or analysed again without the extractor it was in. */
  const stop = (slot: Slot, why: { extractor: number; elapsedMs: number } | { overBudget: true }) => {
    const job = slot.job!;
    retire(slots, slot);
    if ('extractor' in why)
      options.onStopped?.({ url: job.context.url, extractor: why.extractor, elapsedMs: why.elapsedMs });
    const failure = afterStop(job, why, budgetMs);
    if (failure) settle(job, { error: failure });
    else {
      // Its second analysis: first in its lane, in a thread like any page.
      job.lane.running--;
      job.lane.queue.unshift(job);
    }
    pump();
  };

  // Reads the busy threads while there are any (watchBusy); a page past yieldAfterMs gives way to the others.
  const watchdog = new Watchdog(tickMs, () =>
    watchBusy(slots, { budgetMs, yieldAfterMs }, stop, (slot, now) => {
      if (low && low.available() && !slot.low) low.handOver(slot, now);
      else giveWay(slot, lowLanes, now, options.onYielded);
    }),
  );

  const spawn = (low: boolean): Slot => {
    const { worker, watch } = startThread(options.thread ?? threadScript(), heapMb);
    const slot = newSlot(worker, watch, low);
    slots.push(slot);
    worker.on('message', (reply: PageFactsReply) => {
      if (slot.state === 'gone') return;
      if ('ready' in reply) {
        slot.tid = reply.tid ?? null;
        if (low) lower(slot);
        if (slot.state === 'starting') slot.state = 'idle';
        return pump();
      }
      const job = slot.job;
      if (!job || reply.id !== slot.page) return;
      slot.state = 'idle';
      slot.job = null;
      // The lane's low period runs from the end of its long page.
      if (slot.yielded) lowLanes.mark(job.lane.key, performance.now());
      slot.yielded = false;
      worker.unref();
      if ('error' in reply)
        settle(job, { error: new PageAnalysisError(`Page could not be analysed: ${reply.error.slice(0, 300)}`) });
      else settle(job, { facts: reply.facts });
      pump();
    });
    worker.on('error', (err) => {
      slot.error = asError(err);
    });
    worker.on('exit', (code) => {
      if (slot.state === 'gone') return;
      const { state, job } = slot;
      release(slot);
      if (closed) return;
      if (state === 'starting') return degrade(code);
      // The page in hand is the one the thread died on: it fails, and no other page was in this thread.
      if (job) settle(job, { error: deathOf(slot, code, heapMb) });
      pump();
    });
    // Only a thread with a page in hand keeps the process alive.
    worker.unref();
    return slot;
  };

  const post = (slot: Slot, job: Job) => {
    const id = nextId;
    nextId = nextId >= 0x7fffffff ? 1 : nextId + 1;
    options.onPosted?.({ url: job.context.url, lane: job.lane.key, tid: slot.tid, low: slot.low });
    postPage(slot, job, id);
    watchdog.start();
  };

  /**
   * Gives idle threads the next pages, lane by lane: a low-priority thread only to lanes whose page gave way lately,
   * a thread at the process's priority only to the others. When pages wait with no idle thread of their kind, starts
   * one (in place of an idle thread of the other kind when the pool is full).
   */
  function pump(): void {
    if (closed || degraded) return;
    if (low) low.dispatch();
    for (const slot of slots) {
      if (slot.state !== 'idle') continue;
      const job = lanes.next((lane) => lowLanes.has(lane) === slot.low);
      if (job) post(slot, job);
    }
    const start = threadToStart(slots, lanes, lowLanes, maxThreads);
    if (start?.replacing) retire(slots, start.replacing);
    if (start) spawn(start.low);
  }

  return {
    async extract(body, context, lane = '') {
      if (closed) throw new Error('page analysis pool is closed');
      if (degraded) throw degraded;
      const limitMs = context.extraction?.specs.length
        ? (context.extraction.budgetMs ?? EXTRACTION_LIMITS.pageBudgetMs) + marginMs
        : null;
      return new Promise<PageFacts>((resolve, reject) => {
        const keep = limitMs !== null || !!low;
        const job: Job = { context, body, lane: lanes.of(lane), limitMs, keep, second: false, resolve, reject };
        job.lane.queue.push(job);
        pump();
      });
    },
    async close() {
      closed = true;
      watchdog.stop();
      if (low) await low.close();
      const closing = new Error('page analysis pool is closed');
      const threads = slots.splice(0);
      for (const slot of threads) {
        const job = slot.job;
        slot.state = 'gone';
        slot.job = null;
        if (job) settle(job, { error: closing });
      }
      failAll(closing);
      await Promise.all(threads.map((s) => s.worker.terminate()));
    },
  };
}

/** In the calling thread: for one-off audits and tests, or when no thread is configured. */
export const extractInline: PageFactsExtract = extractPageFacts;
