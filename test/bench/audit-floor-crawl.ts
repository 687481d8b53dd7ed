/**
 * Child-process entry: the floor. What fetching and tokenizing the pages costs with our libraries and nothing else:
 * undici (keep-alive, the worker's concurrency) fetches every page, htmlparser2's tokenizer finds its links, and the
 * same-host ones not seen yet are queued. No checks, no storage, no robots.txt, no redirects followed. A fresh
 * process per run, like a fresh worker per audit on our side and crawlee's child beside it.
 */
import { Agent, request } from 'undici';
import { newLinksOf } from './floor-links.js';

export interface FloorJob {
  startUrl: string;
  concurrency: number;
}

export interface FloorResult {
  pages: number;
  failed: number;
  elapsedMs: number;
  cpuMs: number;
  /** Peak RSS of this process (getrusage maxrss), in KiB. */
  maxRssKb: number;
  error?: string;
}

async function crawl(job: FloorJob): Promise<FloorResult> {
  const start = new URL(job.startUrl);
  const agent = new Agent({ connections: job.concurrency, keepAliveTimeout: 30_000 });
  const seen = new Set<string>([start.href]);
  const queue: string[] = [start.href];
  let pages = 0;
  let failed = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let active = 0;
  await new Promise<void>((resolve) => {
    const pump = () => {
      while (active < job.concurrency && queue.length) {
        const url = queue.shift()!;
        active++;
        void visit(url).finally(() => {
          active--;
          if (!queue.length && active === 0) resolve();
          else pump();
        });
      }
      if (!queue.length && active === 0) resolve();
    };
    const visit = async (url: string) => {
      try {
        const res = await request(url, { dispatcher: agent, headers: { 'user-agent': 'bench-floor' } });
        const html = await res.body.text();
        if (res.statusCode !== 200) {
          failed++;
          return;
        }
        pages++;
        queue.push(...newLinksOf(html, url, start.host, seen));
      } catch {
        failed++;
      }
    };
    pump();
  });
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await agent.close();
  return {
    pages,
    failed,
    elapsedMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssKb: process.resourceUsage().maxRSS,
  };
}

process.once('message', (job: FloorJob) => {
  crawl(job).then(
    (result) => process.send?.(result, () => process.exit(0)),
    (err: unknown) =>
      process.send?.({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }, () => process.exit(1)),
  );
});
process.on('disconnect', () => process.exit(0));
