import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { PageContext, PageFacts } from '../seo/page/index.js';

const FROM_SOURCES = import.meta.url.endsWith('.ts');
const HOST_ENTRY = new URL(`./page-analysis-process.host${FROM_SOURCES ? '.ts' : '.js'}`, import.meta.url);
const which = (...paths: string[]) => paths.find((path) => existsSync(path)) ?? null;
/**
 * How the process is started, so that every thread it makes is at the lowest priority from its birth: under
 * util-linux's `chrt --idle` (Linux's SCHED_IDLE: it runs only on CPU time nothing else wants, and a waking thread of
 * any other process takes its CPU at once) and coreutils' `nice -n 19` (where SCHED_IDLE is refused), each where
 * present.
 */
const CHRT = which('/usr/bin/chrt', '/bin/chrt');
const NICE = which('/usr/bin/nice', '/bin/nice');
const LOWEST = [...(CHRT ? [CHRT, '--idle', '0'] : []), ...(NICE ? [NICE, '-n', '19'] : [])];

/** A page to the low-priority process (page-analysis-process.host.ts), and its answers. */
export interface HostRequest {
  id: number;
  body: Uint8Array;
  context: PageContext;
  lane: string;
}

export type HostReply =
  | { id: number; facts: PageFacts }
  /** `page`: the page's own failure (a PageAnalysisError's message); else something of ours failed. */
  | { id: number; error: string; page: boolean }
  | { ready: true };

/** The low-priority process could not start (or is gone before it could): the pool analyses the page itself. */
export class LowPriorityUnavailable extends Error {
  override name = 'LowPriorityUnavailable';
}

/** A page the process could not analyse (its message is the page's failure, as a thread's would be). */
export class LowPriorityPageError extends Error {
  override name = 'LowPriorityPageError';
}

export interface LowPriorityOptions {
  /** Threads of the process's own pool (as many as the calling pool's). */
  threads: number;
  perLane: number;
  heapMb: number;
  budgetMs: number;
  /** Called once when the process cannot be started: its pages are then analysed in the calling pool. */
  onUnavailable?: (err: Error) => void;
}

/**
 * A child process at the lowest CPU priority (nice 19) that analyses the pages of audits whose page gave way
 * (createPageFactsPool's `lowPriorityProcess`). A thread can be lowered alone, but V8 collects every thread's garbage
 * on helper threads that the whole process shares, at the process's priority: the long pages of one audit kept about
 * half a core of another audit's worker busy that way (the parse-neighbour drill). Started under `nice`, every thread
 * of this process (its V8 helpers included) is at the lowest priority from its birth. It runs the same page-facts pool
 * (threads with their heap and time bounds, per-audit lanes), started on first use; it exits after a minute idle.
 */
export class LowPriorityAnalysis {
  private child: ChildProcess | null = null;
  private ready = false;
  private readonly waiting: HostRequest[] = [];
  private readonly pending = new Map<number, { resolve(f: PageFacts): void; reject(e: Error): void }>();
  private nextId = 1;
  /** Set once the process could not start: no further attempt. */
  unavailable = false;

  constructor(private readonly options: LowPriorityOptions) {}

  /** The process's id while it runs (tests read its priority). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  analyse(body: Uint8Array, context: PageContext, lane: string): Promise<PageFacts> {
    if (this.unavailable) return Promise.reject(new LowPriorityUnavailable('low-priority analysis unavailable'));
    const id = this.nextId;
    this.nextId = this.nextId >= 0x7fffffff ? 1 : this.nextId + 1;
    return new Promise<PageFacts>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: HostRequest = { id, body, context, lane };
      if (this.ready) this.child!.send(request);
      else {
        this.waiting.push(request);
        this.start();
      }
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    this.ready = false;
    this.failAll(new Error('page analysis pool is closed'));
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  private start(): void {
    if (this.child) return;
    const node = [...(FROM_SOURCES ? ['--import', 'tsx'] : []), HOST_ENTRY.pathname];
    const [command, ...args] = [...LOWEST, process.execPath, ...node];
    const { threads, perLane, heapMb, budgetMs } = this.options;
    const child = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: {
        ...process.env,
        PAGE_HOST_THREADS: String(threads),
        PAGE_HOST_PER_LANE: String(perLane),
        PAGE_HOST_HEAP_MB: String(heapMb),
        PAGE_HOST_BUDGET_MS: String(budgetMs),
      },
    });
    this.child = child;
    child.on('message', (reply: HostReply) => {
      if ('ready' in reply) {
        this.ready = true;
        for (const request of this.waiting.splice(0)) child.send(request);
        return;
      }
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if ('facts' in reply) waiter.resolve(reply.facts);
      else waiter.reject(reply.page ? new LowPriorityPageError(reply.error) : new Error(reply.error));
    });
    child.on('error', (err) => this.gone(child, err));
    child.on('exit', (code, signal) => this.gone(child, new Error(`exit code ${code ?? signal}`)));
  }

  /** The process ended (or failed to start): what it held fails; before it was up, it is not tried again. */
  private gone(child: ChildProcess, err: Error): void {
    if (this.child !== child) return;
    const started = this.ready;
    this.child = null;
    this.ready = false;
    if (!started) {
      this.unavailable = true;
      this.options.onUnavailable?.(new Error(`low-priority page analysis did not start: ${err.message}`));
      this.waiting.length = 0;
      return this.failAll(new LowPriorityUnavailable(err.message));
    }
    // Pages in hand when it ended are failed as a thread's death fails its page; later pages start it again.
    this.failAll(new LowPriorityPageError(`its analysis process stopped (${err.message})`));
  }

  private failAll(err: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const waiter of pending) waiter.reject(err);
  }
}
