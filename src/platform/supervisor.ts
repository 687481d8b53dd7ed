/**
 * The process supervisor of `seo start`, `seo serve` and `seo worker`: runs its children until a signal arrives;
 * a child that dies on its own is started again after a backoff (exponential, capped, forgotten after a period of
 * stability), while its siblings keep running. A child that exits with a configuration error (code 2) is not
 * restarted: the group stops with that code, since a restart would fail the same way.
 */

/** What the supervisor needs of a child process (node's ChildProcess qualifies). */
export interface Child {
  readonly pid?: number;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

export interface ChildSpec {
  name: string;
  start(): Child;
}

export interface SupervisorLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SupervisorOptions {
  log: SupervisorLog;
  /** First restart delay (default 1 s), doubled on each crash in a row up to maxDelayMs (default 30 s). */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A child that ran this long before crashing starts again from initialDelayMs (default 60 s). */
  stableAfterMs?: number;
  /** Exit codes that stop the group instead of a restart (default [2]: bad configuration). */
  fatalExitCodes?: number[];
  /** A stopping child still alive after this long is killed (default 30 s). */
  killAfterMs?: number;
  now?: () => number;
}

export interface Supervisor {
  /** Stops every child with the signal; `done` resolves once all have exited. */
  stop(signal?: NodeJS.Signals): void;
  /** The group's exit code: 0 after a requested stop, the fatal code when a child could not run. */
  readonly done: Promise<number>;
  /** Restarts so far, per child name (tests, metrics). */
  restarts(): Record<string, number>;
}

export function backoffDelay(crashesInARow: number, initialDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, initialDelayMs * 2 ** Math.max(0, crashesInARow - 1));
}

export function supervise(specs: ChildSpec[], options: SupervisorOptions): Supervisor {
  const initial = options.initialDelayMs ?? 1_000;
  const max = options.maxDelayMs ?? 30_000;
  const stableAfter = options.stableAfterMs ?? 60_000;
  const fatalCodes = new Set(options.fatalExitCodes ?? [2]);
  const killAfter = options.killAfterMs ?? 30_000;
  const now = options.now ?? Date.now;
  const { log } = options;

  let stopping = false;
  let exitCode = 0;
  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));

  interface Slot {
    spec: ChildSpec;
    child: Child | null;
    startedAt: number;
    crashesInARow: number;
    restarts: number;
    timer: NodeJS.Timeout | null;
  }
  const slots: Slot[] = specs.map((spec) => ({
    spec,
    child: null,
    startedAt: 0,
    crashesInARow: 0,
    restarts: 0,
    timer: null,
  }));

  const alive = (c: Child | null) => !!c && c.exitCode === null && c.signalCode === null;
  const settleIfDone = () => {
    if (stopping && slots.every((s) => !alive(s.child) && !s.timer)) resolveDone(exitCode);
  };

  const launch = (slot: Slot) => {
    slot.timer = null;
    if (stopping) return settleIfDone();
    let child: Child;
    try {
      child = slot.spec.start();
    } catch (err) {
      log.error({ child: slot.spec.name, err }, 'could not start a platform process');
      return crashed(slot, null, null);
    }
    slot.child = child;
    slot.startedAt = now();
    child.once('exit', (code, signal) => {
      if (slot.child !== child) return;
      if (stopping) return settleIfDone();
      crashed(slot, code, signal);
    });
  };

  const crashed = (slot: Slot, code: number | null, signal: NodeJS.Signals | null) => {
    if (code !== null && fatalCodes.has(code)) {
      log.error(
        { child: slot.spec.name, code },
        'a platform process cannot run (configuration error); stopping the others',
      );
      exitCode = code;
      stop('SIGTERM');
      return;
    }
    const ranMs = slot.startedAt ? now() - slot.startedAt : 0;
    slot.crashesInARow = ranMs >= stableAfter ? 1 : slot.crashesInARow + 1;
    const delayMs = backoffDelay(slot.crashesInARow, initial, max);
    slot.restarts += 1;
    log.warn(
      {
        child: slot.spec.name,
        pid: slot.child?.pid,
        code,
        signal,
        ranMs,
        restartInMs: delayMs,
        crashesInARow: slot.crashesInARow,
      },
      'a platform process exited; restarting it',
    );
    slot.timer = setTimeout(() => launch(slot), delayMs);
  };

  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (!stopping) {
      stopping = true;
      for (const slot of slots) {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        if (alive(slot.child)) {
          slot.child!.kill(signal);
          const child = slot.child!;
          setTimeout(() => alive(child) && child.kill('SIGKILL'), killAfter).unref();
        }
      }
    }
    settleIfDone();
  };

  for (const slot of slots) launch(slot);
  return { stop, done, restarts: () => Object.fromEntries(slots.map((s) => [s.spec.name, s.restarts])) };
}
