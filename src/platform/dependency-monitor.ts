import type { Logger } from './logger.js';
import type { Dependency } from './infra-errors.js';

export interface DependencyMonitorOptions {
  logger: Logger;
  /** One cheap round trip per dependency (SELECT 1, PING) that rejects when it cannot be served. */
  probes: Partial<Record<Dependency, () => Promise<unknown>>>;
  /** Probe timeout, and the period of probing while something is down (default 1 s). */
  intervalMs?: number;
}

/**
 * Knows whether PostgreSQL and Redis are up, from probes run when a failure was seen and then every second
 * until everything is back; logs one structured line per change of state (`dependency down` / `dependency up`),
 * never one per failed request or reconnect attempt.
 */
export class DependencyMonitor {
  private readonly state = new Map<Dependency, { up: boolean; since: number }>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;
  private readonly intervalMs: number;

  constructor(private readonly options: DependencyMonitorOptions) {
    this.intervalMs = options.intervalMs ?? 1_000;
    for (const dep of Object.keys(options.probes) as Dependency[]) this.state.set(dep, { up: true, since: Date.now() });
  }

  isUp(dep: Dependency): boolean {
    return this.state.get(dep)?.up ?? true;
  }

  /** What /readyz-style callers and tests read. */
  snapshot(): Record<string, boolean> {
    return Object.fromEntries([...this.state].map(([dep, s]) => [dep, s.up]));
  }

  /**
   * Something failed (or a connection reported an event): probe now, at most one probe round at a time. Never
   * rejects (a failed probe is a dependency down), so callers may start it without awaiting (`void monitor.check()`).
   */
  check(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.running ??= this.probeAll()
      .catch((err: unknown) => this.options.logger.error({ err }, 'dependency probe round failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async probeAll(): Promise<void> {
    const entries = Object.entries(this.options.probes) as [Dependency, () => Promise<unknown>][];
    await Promise.all(entries.map(async ([dep, probe]) => this.set(dep, await this.probeOnce(probe))));
    if (this.closed) return;
    const anyDown = [...this.state.values()].some((s) => !s.up);
    if (anyDown && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.check();
      }, this.intervalMs);
      this.timer.unref();
    }
  }

  private async probeOnce(probe: () => Promise<unknown>): Promise<Error | null> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probe(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.intervalMs} ms`)), this.intervalMs);
        }),
      ]);
      return null;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    } finally {
      clearTimeout(timer);
    }
  }

  private set(dep: Dependency, failure: Error | null): void {
    const prev = this.state.get(dep) ?? { up: true, since: Date.now() };
    const up = failure === null;
    if (prev.up === up) return;
    const now = Date.now();
    this.state.set(dep, { up, since: now });
    if (up)
      this.options.logger.info(
        { dependency: dep, state: 'up', downForMs: now - prev.since },
        `${dep} is reachable again`,
      );
    else
      this.options.logger.error(
        { dependency: dep, state: 'down', reason: failure.message.split('\n')[0].slice(0, 200) },
        `${dep} is unreachable`,
      );
  }
}
