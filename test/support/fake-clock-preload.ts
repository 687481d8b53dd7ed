import type { ClockMessage } from './fake-clock.js';

/**
 * Preloaded into a child process only (see fake-clock.ts): `Date.now()` and `new Date()` read the real clock plus an
 * offset the parent moves forward. Timers are untouched, so connections, locks and timeouts run in real time; only
 * what the process takes for "now" moves. BullMQ computes job schedulers' run times and promotes delayed jobs from
 * `Date.now()` of the calling process, so worker processes on this clock fire a daily schedule a simulated day apart.
 */
const RealDate = Date;
let offset = 0;

class ClockDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...(args as [string | number | Date]));
  }

  static override now(): number {
    return RealDate.now() + offset;
  }
}

if (!process.send) throw new Error('fake-clock-preload needs an IPC channel to its parent');
globalThis.Date = ClockDate as DateConstructor;
process.on('message', (message: unknown) => {
  const m = message as Partial<ClockMessage> | null;
  if (m?.type !== 'test:clock' || typeof m.at !== 'number') return;
  offset = Math.max(offset, m.at - RealDate.now());
  process.send?.({ type: 'test:clock-set', at: RealDate.now() + offset });
});
// The channel must not keep the process alive on its own (the worker exits when it is told to).
process.channel?.unref();
