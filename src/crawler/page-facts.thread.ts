import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { extractPageFacts, type PageContext } from '../seo/page/index.js';
import { PageWatchWriter, type PageWatchInit } from './page-facts-watch.js';

/** Worker-thread entry of the page-facts pool: HTML bytes in, PageFacts (plain data) out. */
export interface PageFactsRequest {
  id: number;
  body: Uint8Array;
  context: PageContext;
}

export type PageFactsReply =
  | { id: number; facts: ReturnType<typeof extractPageFacts> }
  | { id: number; error: string }
  | { ready: true; tid: number | null };

/** What the pool hands the thread at its start. */
export interface PageFactsThreadData {
  watch?: PageWatchInit;
}

// Where the pool sees which extractor runs, and since when: it stops a thread stuck in one past the hard bound.
const init = (workerData as PageFactsThreadData | null)?.watch;
const watch = init ? new PageWatchWriter(init) : null;

parentPort?.on('message', ({ id, body, context }: PageFactsRequest) => {
  let reply: PageFactsReply;
  watch?.begin(id);
  try {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    reply = { id, facts: extractPageFacts(bytes, context, watch?.extractor) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  watch?.end();
  parentPort!.postMessage(reply);
});
/** This thread's id in the kernel (Linux: /proc/thread-self is "<pid>/task/<tid>"), for its CPU priority; else null. */
function threadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

// Loaded and listening: the pool starts sending pages only now.
parentPort?.postMessage({ ready: true, tid: threadId() } satisfies PageFactsReply);
