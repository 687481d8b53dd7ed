import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, supervise, type Child, type ChildSpec } from '../../../src/platform/supervisor.js';

class FakeChild extends EventEmitter implements Child {
  static nextPid = 100;
  readonly pid = FakeChild.nextPid++;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly signals: NodeJS.Signals[] = [];
  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    this.signals.push(signal);
    // A well-behaved child exits on the signal.
    queueMicrotask(() => this.exit(null, signal));
    return true;
  }
  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    if (this.exitCode !== null || this.signalCode !== null) return;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

function spec(name: string, started: FakeChild[]): ChildSpec {
  return {
    name,
    start: () => {
      const c = new FakeChild();
      started.push(c);
      return c;
    },
  };
}

const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

describe('supervisor', () => {
  let clock = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
  });
  afterEach(() => vi.useRealTimers());
  const advance = async (ms: number) => {
    clock += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };

  it('backs off exponentially up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, 1_000, 30_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('restarts a crashed child after a growing delay while its siblings keep running', async () => {
    const audit: FakeChild[] = [];
    const rank: FakeChild[] = [];
    const group = supervise([spec('audit', audit), spec('rank', rank)], {
      log,
      now: () => clock,
      initialDelayMs: 1_000,
      maxDelayMs: 8_000,
      stableAfterMs: 60_000,
    });
    expect(audit).toHaveLength(1);
    audit[0].exit(null, 'SIGKILL'); // kill -9
    await advance(999);
    expect(audit).toHaveLength(1);
    await advance(1);
    expect(audit).toHaveLength(2); // restarted after 1 s
    expect(rank[0].signals).toEqual([]); // the sibling was left alone
    audit[1].exit(1);
    await advance(1_999);
    expect(audit).toHaveLength(2);
    await advance(1);
    expect(audit).toHaveLength(3); // 2 s the second time in a row
    for (let i = 0; i < 4; i++) {
      audit[audit.length - 1].exit(1);
      await advance(8_000);
    }
    expect(audit).toHaveLength(7); // capped at 8 s
    expect(group.restarts()).toEqual({ audit: 6, rank: 0 });
    group.stop();
    await expect(group.done).resolves.toBe(0);
  });

  it('forgets earlier crashes once a child has run stably', async () => {
    const audit: FakeChild[] = [];
    const group = supervise([spec('audit', audit)], {
      log,
      now: () => clock,
      initialDelayMs: 1_000,
      maxDelayMs: 30_000,
      stableAfterMs: 60_000,
    });
    audit[0].exit(1);
    await advance(1_000);
    audit[1].exit(1);
    await advance(2_000);
    expect(audit).toHaveLength(3);
    await advance(61_000); // runs a minute: stable
    audit[2].exit(1);
    await advance(1_000);
    expect(audit).toHaveLength(4); // back to the first delay
    group.stop();
    await group.done;
  });

  it('stops every child on a signal and resolves once all exited, restarting nothing', async () => {
    const a: FakeChild[] = [];
    const b: FakeChild[] = [];
    const group = supervise([spec('api', a), spec('audit', b)], { log, now: () => clock });
    b[0].exit(1); // crashed: a restart is pending
    group.stop('SIGINT');
    await advance(60_000);
    expect(a[0].signals).toEqual(['SIGINT']);
    expect(b).toHaveLength(1); // the pending restart was cancelled
    await expect(group.done).resolves.toBe(0);
  });

  it('stops the group with code 2 when a child exits with a configuration error', async () => {
    const a: FakeChild[] = [];
    const b: FakeChild[] = [];
    const group = supervise([spec('api', a), spec('audit', b)], { log, now: () => clock });
    b[0].exit(2);
    await advance(10);
    expect(a[0].signals).toEqual(['SIGTERM']);
    expect(b).toHaveLength(1);
    await expect(group.done).resolves.toBe(2);
  });
});
