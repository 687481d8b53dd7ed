/**
 * A clock a test moves in its child processes: they preload test/support/fake-clock-preload.ts (`node --import tsx
 * --import ./test/support/fake-clock-preload.ts workers/audit.worker.ts`, with an IPC channel), and the test sends
 * them `{ type: 'test:clock', at }`; each answers `{ type: 'test:clock-set', at }` once it takes `at` for now.
 */
export interface ClockMessage {
  type: 'test:clock';
  /** The time (ms since the epoch) the process should take for now; only forward. */
  at: number;
}

export const CLOCK_PRELOAD = './test/support/fake-clock-preload.ts';

export const isClockSet = (m: unknown): m is { type: 'test:clock-set'; at: number } =>
  (m as { type?: string } | null)?.type === 'test:clock-set';
