import type { HostReply, HostRequest } from './page-analysis-process.js';
import { createPageFactsPool, PageAnalysisError } from './page-facts-pool.js';

// Entry of the low-priority page analysis process (page-analysis-process.ts): pages in over IPC, facts out, analysed
// by a page-facts pool of its own. The whole process runs at the lowest priority, so its pages never give way further.

/** Idle this long, the process exits (the next long page starts it again). */
const IDLE_EXIT_MS = 60_000;

const number = (name: string) => Number(process.env[name]);
const pool = createPageFactsPool(number('PAGE_HOST_THREADS'), {
  perLane: number('PAGE_HOST_PER_LANE'),
  maxHeapMb: number('PAGE_HOST_HEAP_MB'),
  pageBudgetMs: number('PAGE_HOST_BUDGET_MS'),
  yieldAfterMs: Number.POSITIVE_INFINITY,
});

let inHand = 0;
let idle: NodeJS.Timeout | null = null;
const send = (reply: HostReply) => process.send?.(reply);
const stop = () => void pool.close().finally(() => process.exit(0));
const idleTimer = () => {
  if (idle) clearTimeout(idle);
  idle = inHand ? null : setTimeout(stop, IDLE_EXIT_MS);
};

process.on('message', (request: HostRequest) => {
  inHand++;
  idleTimer();
  const body = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
  pool
    .extract(body, request.context, request.lane)
    .then(
      (facts) => send({ id: request.id, facts }),
      (err: unknown) =>
        send({
          id: request.id,
          error: err instanceof Error ? err.message : String(err),
          page: err instanceof PageAnalysisError,
        }),
    )
    .finally(() => {
      inHand--;
      idleTimer();
    });
});
// The worker went away (or closed its pool): nothing is left to serve.
process.on('disconnect', stop);
process.on('SIGTERM', stop);
idleTimer();
send({ ready: true });
