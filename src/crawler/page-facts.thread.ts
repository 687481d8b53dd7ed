import { parentPort } from 'node:worker_threads';
import { extractPageFacts, type PageContext } from '../seo/page/index.js';

/** Worker-thread entry of the page-facts pool: HTML bytes in, PageFacts (plain data) out. */
export interface PageFactsRequest {
  id: number;
  body: Uint8Array;
  context: PageContext;
}

export type PageFactsReply =
  { id: number; facts: ReturnType<typeof extractPageFacts> } | { id: number; error: string } | { ready: true };

parentPort?.on('message', ({ id, body, context }: PageFactsRequest) => {
  let reply: PageFactsReply;
  try {
    reply = { id, facts: extractPageFacts(Buffer.from(body.buffer, body.byteOffset, body.byteLength), context) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
// Loaded and listening: the pool starts sending pages only now.
parentPort?.postMessage({ ready: true } satisfies PageFactsReply);
