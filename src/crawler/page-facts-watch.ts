/**
 * What a page-facts thread tells its pool without a message: the page whose custom extractors it is running, since
 * when, and which extractor runs. It lives in memory the two threads share, written a few times per page (no
 * message, no allocation), so the pool can see a thread stuck in one extractor — a regular expression that
 * backtracks for seconds cannot be interrupted inside its thread — and stop it (page-facts-pool.ts).
 */

/** Handed to the thread in its workerData. */
export interface PageWatchInit {
  buffer: SharedArrayBuffer;
  /** The pool's performance.timeOrigin: the thread writes times on the pool's performance.now() clock. */
  epoch: number;
}

// [0] the page id (0: no extractor running), [1] the index of the running extractor; then a Float64 start time.
const PAGE = 0;
const EXTRACTOR = 1;
const SINCE_OFFSET = 8;

/** The thread's side. */
export class PageWatchWriter {
  private readonly state: Int32Array;
  private readonly since: Float64Array;
  private readonly offset: number;
  private page = 0;
  private started = false;

  constructor(init: PageWatchInit) {
    this.state = new Int32Array(init.buffer, 0, 2);
    this.since = new Float64Array(init.buffer, SINCE_OFFSET, 1);
    this.offset = performance.timeOrigin - init.epoch;
  }

  /** A page begins: its extractors' clock starts at the first of them, not now (its parse is not theirs). */
  begin(id: number): void {
    this.page = id;
    this.started = false;
  }

  /** Called as each extractor starts (extractPageFacts' onExtractor). */
  readonly extractor = (index: number): void => {
    if (!this.started) {
      this.started = true;
      // The time first, then the page id: a reader that sees the id sees its time.
      this.since[0] = this.offset + performance.now();
      Atomics.store(this.state, PAGE, this.page);
    }
    Atomics.store(this.state, EXTRACTOR, index);
  };

  /** The page is done (its reply follows). */
  end(): void {
    if (this.started) Atomics.store(this.state, PAGE, 0);
  }
}

/** The pool's side: one per thread. */
export class PageWatchReader {
  private readonly buffer = new SharedArrayBuffer(SINCE_OFFSET + 8);
  private readonly state = new Int32Array(this.buffer, 0, 2);
  private readonly since = new Float64Array(this.buffer, SINCE_OFFSET, 1);

  readonly init: PageWatchInit = { buffer: this.buffer, epoch: performance.timeOrigin };

  /** The page whose extractors run, for how long (ms) and which one; null while none runs. */
  read(): { page: number; elapsedMs: number; extractor: number } | null {
    const page = Atomics.load(this.state, PAGE);
    if (page === 0) return null;
    return { page, elapsedMs: performance.now() - this.since[0], extractor: Atomics.load(this.state, EXTRACTOR) };
  }
}

/** Calls `check` every `periodMs` from start() for as long as it answers true (something left to watch). */
export class Watchdog {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly periodMs: number,
    private readonly check: () => boolean,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.check()) this.stop();
    }, this.periodMs);
    // The pages in flight keep the process alive (their threads are ref'd), not the watchdog.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
