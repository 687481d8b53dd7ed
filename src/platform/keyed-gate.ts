import { DomainError } from './errors.js';

/** How many tasks a KeyedGate lets run, and how long and how many may wait for a slot. */
export interface KeyedGateLimits {
  /** Tasks of one key (an organization) running at once. */
  perKey: number;
  /** Tasks of every key running at once. */
  total: number;
  /** How long a task may wait for a slot before it is refused. */
  maxWaitMs: number;
  /** Tasks of one key waiting at once; one more is refused at once. */
  maxQueuedPerKey: number;
}

interface Waiter {
  key: string;
  grant: () => void;
  refuse: (error: unknown) => void;
}

/** The refusal of a task that found no slot: RATE_LIMITED, with the seconds to wait (Retry-After). */
export const gateFull = (message: string, retryAfterSeconds: number) =>
  new DomainError('RATE_LIMITED', message, undefined, retryAfterSeconds);

/**
 * At most `perKey` tasks of one key and `total` tasks in all at once; the others wait in order, each at most
 * `maxWaitMs`, at most `maxQueuedPerKey` of one key, and are refused (RATE_LIMITED) past either. A slot that frees goes
 * to the first waiter whose key is under its own limit, so that a key with a long queue does not hold back another
 * key's task behind it. An aborted signal takes its task out of the queue.
 */
export class KeyedGate {
  private running = 0;
  private readonly byKey = new Map<string, number>();
  private readonly queued = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly limits: KeyedGateLimits,
    private readonly describe: (reason: 'busy' | 'waited') => string = (reason) =>
      reason === 'busy' ? 'Too many queries at once: retry shortly.' : 'Waited too long for a query slot.',
  ) {}

  /** Tasks of the key running now (tests and metrics). */
  runningOf(key: string): number {
    return this.byKey.get(key) ?? 0;
  }

  get inFlight(): number {
    return this.running;
  }

  /** Runs `task` in a slot of `key`. */
  async run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal | null): Promise<T> {
    const release = await this.acquire(key, signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** A slot of `key`: resolves with its release (call it once), or rejects (RATE_LIMITED, or the signal's reason). */
  acquire(key: string, signal?: AbortSignal | null): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.fits(key)) return Promise.resolve(this.take(key));
    const queued = this.queued.get(key) ?? 0;
    if (queued >= this.limits.maxQueuedPerKey)
      return Promise.reject(gateFull(this.describe('busy'), this.retryAfterSeconds()));
    return new Promise<() => void>((resolve, reject) => {
      let settled = false;
      const finish = () => {
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const left = (this.queued.get(key) ?? 1) - 1;
        if (left > 0) this.queued.set(key, left);
        else this.queued.delete(key);
      };
      const leave = (error: unknown) => {
        if (settled) return;
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        finish();
        reject(error);
      };
      const waiter: Waiter = {
        key,
        grant: () => {
          finish();
          resolve(this.take(key));
        },
        refuse: leave,
      };
      const onAbort = () => leave(abortReason(signal!));
      const timer = setTimeout(
        () => leave(gateFull(this.describe('waited'), this.retryAfterSeconds())),
        this.limits.maxWaitMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queued.set(key, queued + 1);
      this.waiting.push(waiter);
    });
  }

  private fits(key: string): boolean {
    return this.running < this.limits.total && (this.byKey.get(key) ?? 0) < this.limits.perKey;
  }

  private take(key: string): () => void {
    this.running += 1;
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = (this.byKey.get(key) ?? 1) - 1;
      if (left > 0) this.byKey.set(key, left);
      else this.byKey.delete(key);
      this.grantNext();
    };
  }

  /** Each waiter (in order) whose key now fits gets its slot. */
  private grantNext(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.limits.total;) {
      const waiter = this.waiting[i];
      if (this.fits(waiter.key)) {
        this.waiting.splice(i, 1);
        waiter.grant();
      } else i += 1;
    }
  }

  private retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.limits.maxWaitMs / 1000));
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}
