import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SiteMessage, SiteRequest, SiteStats } from './audit-site-server.js';

type Counters = Omit<SiteStats, 'cpuMs' | 'firstPageAtMs' | 'lastPageAtMs'>;

const zero = (): Counters => ({ pages: 0, distinctPages: 0, head: 0, images: 0, other: 0, notFound: 0 });

/** What a bench site process counts between two stats requests (SiteStats), for the parent over IPC. */
export class SiteRecorder {
  /** Counted by the server's handler; zeroed in place on reset, so a reference to it stays valid. */
  readonly counters = zero();
  private seen: Uint8Array;
  private firstPageAtMs: number | null = null;
  private lastPageAtMs: number | null = null;
  private cpu = process.cpuUsage();

  constructor(private readonly pages: number) {
    this.seen = new Uint8Array(pages);
  }

  /**
   * A GET of HTML page `index`: counted, distinct pages too, and the crawl window: the first page request to the answer
   * of the last page served for the first time. A page asked for again does not stretch it: our audit's lab vitals
   * load three crawled pages in Chromium after the crawl, and counted, they made our "crawl phase" 10.7 s where the
   * probe saw the pages fetched in 2.7 s.
   */
  page(index: number, res: ServerResponse): void {
    this.firstPageAtMs ??= Date.now();
    this.counters.pages++;
    if (!this.seen[index]) {
      this.seen[index] = 1;
      this.counters.distinctPages++;
      res.once('finish', () => (this.lastPageAtMs = Date.now()));
    }
  }

  stats(): SiteStats {
    const used = process.cpuUsage(this.cpu);
    const cpuMs = (used.user + used.system) / 1000;
    return { ...this.counters, cpuMs, firstPageAtMs: this.firstPageAtMs, lastPageAtMs: this.lastPageAtMs };
  }

  reset(): void {
    Object.assign(this.counters, zero());
    this.firstPageAtMs = this.lastPageAtMs = null;
    this.seen = new Uint8Array(this.pages);
    this.cpu = process.cpuUsage();
  }
}

/**
 * Serves `handle` on 127.0.0.1 (an ephemeral port, sent to the parent) and answers the parent's IPC: `stats` (with
 * an optional reset) and `close`.
 */
export function serveSiteProcess(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  recorder: SiteRecorder,
): void {
  const server = createServer({ keepAliveTimeout: 10_000 }, handle);
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port } satisfies SiteMessage);
  });
  process.on('message', (msg: SiteRequest) => {
    if (msg.type === 'close') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
      return;
    }
    process.send?.({ type: 'stats', ...recorder.stats() } satisfies SiteMessage);
    if (msg.reset) recorder.reset();
  });
}
