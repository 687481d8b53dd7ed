import { describe, expect, it } from 'vitest';
import { TimeShare } from '../../../src/platform/time-share.js';

describe('TimeShare: each organization a share of database time', () => {
  const at = { now: 0 };
  const share = () => new TimeShare({ budgetMs: 3_000, windowMs: 10_000 }, () => at.now);

  it('lets a key spend up to its budget, then refuses it with the seconds until it falls back under', () => {
    at.now = 0;
    const s = share();
    s.assertWithin('a');
    s.charge('a', 2_000);
    s.assertWithin('a');
    s.charge('a', 2_000);
    let refusal: unknown;
    try {
      s.assertWithin('a');
    } catch (err) {
      refusal = err;
    }
    // 4,000 ms spent against 3,000: 10 s × ln(4/3) = 2.9 s until it decays under the budget.
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 3 });
    expect((refusal as Error).message).toMatch(/share of the database .*retry in 3 s/);
    // Another key is untouched.
    expect(() => s.assertWithin('b')).not.toThrow();
    at.now = 2_800;
    expect(() => s.assertWithin('a')).toThrow();
    at.now = 3_000;
    expect(() => s.assertWithin('a')).not.toThrow();
  });

  it('forgets spending exponentially over the window', () => {
    at.now = 0;
    const s = share();
    s.charge('a', 1_000);
    at.now = 10_000;
    expect(s.spentBy('a')).toBeCloseTo(1_000 / Math.E, 6);
    s.charge('a', 1_000);
    expect(s.spentBy('a')).toBeCloseTo(1_000 / Math.E + 1_000, 6);
  });
});
