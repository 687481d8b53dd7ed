import { DomainError } from './errors.js';

/** How much database time one key (an organization) may spend on user-shaped reads: a budget over a window. */
export interface TimeShareLimits {
  /** The time a key's reads may add up to over about `windowMs` before its next read is refused. */
  budgetMs: number;
  /** The window over which a key's spending is forgotten (exponentially: what was spent `windowMs` ago counts 1/e). */
  windowMs: number;
}

/**
 * A share of the database per key: the time each key's reads took, decaying exponentially over `windowMs`; a read of
 * a key whose spending is past `budgetMs` is refused RATE_LIMITED, with the seconds until its spending decays under
 * the budget (Retry-After). Slots (KeyedGate) bound how many reads a key runs at once; this bounds how much of the
 * machine they take over time: one organization that keeps its slots busy with costly reads, each legitimate, would
 * otherwise hold cores that every other organization's reads share (the grid-neighbour drill).
 */
export class TimeShare {
  private readonly spent = new Map<string, { ms: number; at: number }>();

  constructor(
    private readonly limits: TimeShareLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The key's spending now, decayed. */
  spentBy(key: string): number {
    const entry = this.spent.get(key);
    if (!entry) return 0;
    return entry.ms * Math.exp(-(this.now() - entry.at) / this.limits.windowMs);
  }

  /** Throws RATE_LIMITED when the key has spent its share; the message says what and for how long. */
  assertWithin(key: string): void {
    const spent = this.spentBy(key);
    if (spent <= this.limits.budgetMs) return;
    const waitMs = this.limits.windowMs * Math.log(spent / this.limits.budgetMs);
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    const { budgetMs, windowMs } = this.limits;
    const budget = `about ${(budgetMs / 1000).toFixed(1)} s of query time per ${windowMs / 1000} s`;
    throw new DomainError(
      'RATE_LIMITED',
      `This organization's URL table and segment reads used their share of the database (${budget}): ` +
        `retry in ${seconds} s.`,
      undefined,
      seconds,
    );
  }

  /** Adds a read's time to the key's spending. */
  charge(key: string, ms: number): void {
    const spent = this.spentBy(key) + ms;
    if (spent < 1) this.spent.delete(key);
    else this.spent.set(key, { ms: spent, at: this.now() });
    // Keys long idle are forgotten: at most one entry per organization that read recently.
    if (this.spent.size > 10_000) for (const [k] of this.spent) if (this.spentBy(k) < 1) this.spent.delete(k);
  }
}
