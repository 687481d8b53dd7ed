import type { SafeHttpClient } from '../../platform/safe-http/index.js';
import type { RenderFailure, RenderInput, RenderOutput } from './render.types.js';

/** First entries kept of each record (console errors, failed requests), as PageRendering documents. */
const RECORD_LIMIT = 10;
const MESSAGE_LIMIT = 300;
/** URLs kept in blockedByRobots (distinct). */
const ROBOTS_LIMIT = 50;

/**
 * What one render has spent and seen: its budgets, the requests in flight (network idle), and the records that end
 * up in PageRendering. Owned by the page slot rendering it; the browser's events are dispatched to the current job.
 */
export class RenderJob {
  readonly started = Date.now();
  readonly deadline: number;
  /** Ends the job's fetches (through the safe client) when the render ends, whatever the reason. */
  readonly stop = new AbortController();
  documentServed = false;
  requests = 0;
  bytes = 0;
  private readonly inflight = new Map<number, string>();
  private nextId = 0;
  /** Requests in flight whose failure is recorded. */
  private readonly reported = new Set<number>();
  lastActivity = Date.now();
  private readonly consoleErrors: string[] = [];
  private consoleErrorCount = 0;
  private readonly failures: RenderFailure[] = [];
  private failureCount = 0;
  private readonly robots = new Set<string>();

  /** The render's rules for its subrequests (RenderInput): robots.txt, the scope's excludes, the client. */
  readonly allowed: ((url: string) => boolean) | undefined;
  readonly excluded: ((url: string) => boolean) | undefined;
  readonly client: SafeHttpClient | undefined;

  constructor(
    readonly url: string,
    timeoutMs: number,
    rules: Pick<RenderInput, 'allowed' | 'excluded' | 'client'> = {},
  ) {
    this.deadline = this.started + timeoutMs;
    this.allowed = rules.allowed;
    this.excluded = rules.excluded;
    this.client = rules.client;
  }

  get ended(): boolean {
    return this.stop.signal.aborted;
  }

  get inflightCount(): number {
    return this.inflight.size;
  }

  remainingMs(): number {
    return this.deadline - Date.now();
  }

  /**
   * A request being answered through the safe client: `end` once it is answered, `fail` when it failed (once per
   * request: one the budget's end already reported as pending is not reported again).
   */
  begin(url: string): { end(): void; fail(reason: string): void } {
    const id = this.nextId++;
    this.inflight.set(id, url);
    this.lastActivity = Date.now();
    return {
      end: () => {
        if (this.inflight.delete(id)) this.lastActivity = Date.now();
      },
      fail: (reason) => {
        if (this.reported.has(id)) return;
        this.reported.add(id);
        this.failed(url, reason);
      },
    };
  }

  consoleError(message: string): void {
    if (this.ended) return;
    this.consoleErrorCount++;
    if (this.consoleErrors.length < RECORD_LIMIT) this.consoleErrors.push(clip(message, MESSAGE_LIMIT));
  }

  failed(url: string, reason: string): void {
    if (this.ended) return;
    this.failureCount++;
    if (this.failures.length < RECORD_LIMIT)
      this.failures.push({ url: clip(url, 2_048), reason: clip(reason, MESSAGE_LIMIT) });
  }

  blockedByRobots(url: string): void {
    if (this.ended || this.robots.size >= ROBOTS_LIMIT) return;
    this.robots.add(url);
  }

  /** The requests still unanswered when the budget ran out count as failed. */
  failPending(reason: string): void {
    for (const [id, url] of this.inflight) {
      if (this.reported.has(id)) continue;
      this.reported.add(id);
      this.failed(url, reason);
    }
  }

  output(html: string, partial: boolean): RenderOutput {
    return {
      html,
      renderMs: Date.now() - this.started,
      partial,
      consoleErrors: [...this.consoleErrors],
      consoleErrorCount: this.consoleErrorCount,
      failedRequests: [...this.failures],
      failedRequestCount: this.failureCount,
      blockedByRobots: [...this.robots],
    };
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
