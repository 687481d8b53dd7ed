import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/platform/errors.js';
import { KeyedGate } from '../../../src/platform/keyed-gate.js';

/** A task that runs until released. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { release, task: () => done };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedGate', () => {
  it('runs at most perKey tasks of one key while another key still gets its slots', async () => {
    const gate = new KeyedGate({ perKey: 2, total: 10, maxWaitMs: 10_000, maxQueuedPerKey: 5 });
    const a = [held(), held(), held()];
    const runs = a.map((h) => gate.run('a', h.task));
    await flush();
    expect(gate.runningOf('a')).toBe(2);
    const b = held();
    const bRun = gate.run('b', b.task);
    await flush();
    expect(gate.runningOf('b')).toBe(1);
    b.release();
    await bRun;
    a[0].release();
    await runs[0];
    await flush();
    // The third of a's tasks took the slot the first gave back.
    expect(gate.runningOf('a')).toBe(2);
    a[1].release();
    a[2].release();
    await Promise.all(runs);
    expect(gate.inFlight).toBe(0);
  });

  it('gives a freed slot to the first waiter whose key fits, not to a key at its limit', async () => {
    const gate = new KeyedGate({ perKey: 1, total: 2, maxWaitMs: 10_000, maxQueuedPerKey: 5 });
    const a1 = held();
    const c1 = held();
    const order: string[] = [];
    const runA1 = gate.run('a', a1.task);
    const runC1 = gate.run('c', c1.task);
    await flush();
    // Both total slots taken: a's second task and b's first wait, in that order.
    const a2 = gate.run('a', async () => void order.push('a2'));
    const b1 = gate.run('b', async () => void order.push('b1'));
    c1.release();
    await runC1;
    await b1;
    // a still holds its one slot: b went first although a2 waited longer.
    expect(order).toEqual(['b1']);
    a1.release();
    await Promise.all([runA1, a2]);
    expect(order).toEqual(['b1', 'a2']);
  });

  it('refuses with RATE_LIMITED and Retry-After after maxWaitMs, and at once past maxQueuedPerKey', async () => {
    const gate = new KeyedGate({ perKey: 1, total: 10, maxWaitMs: 30, maxQueuedPerKey: 1 });
    const h = held();
    const run = gate.run('a', h.task);
    const waited = gate.acquire('a');
    const over = gate.acquire('a');
    await expect(over).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    const error = await waited.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    h.release();
    await run;
    // Refused waiters left no trace: the key takes a task again.
    const release = await gate.acquire('a');
    expect(gate.runningOf('a')).toBe(1);
    release();
    release();
    expect(gate.runningOf('a')).toBe(0);
  });

  it('takes an aborted waiter out of the queue with the abort reason', async () => {
    const gate = new KeyedGate({ perKey: 1, total: 10, maxWaitMs: 10_000, maxQueuedPerKey: 5 });
    const h = held();
    const run = gate.run('a', h.task);
    const controller = new AbortController();
    const waiting = gate.acquire('a', controller.signal);
    const reason = new Error('client gone');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    h.release();
    await run;
    expect(gate.inFlight).toBe(0);
    await expect(gate.acquire('a', controller.signal)).rejects.toBe(reason);
  });
});
