import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Most of a request body the server reads, and discards, before answering a request it refused without reading it.
 * A larger upload is answered at once, and its client may see the connection reset rather than the answer.
 */
export const UNREAD_BODY_DRAIN_BYTES = 32 * 1024 * 1024;
/** How long the server waits for the rest of such a body before it answers anyway. */
export const UNREAD_BODY_DRAIN_MS = 10_000;

/**
 * Refusals sent before the request's body was read (413 for a declared length over the body limit, 415 for a content
 * type no parser takes) are sent once the rest of the body has arrived, up to UNREAD_BODY_DRAIN_BYTES and
 * UNREAD_BODY_DRAIN_MS. Without it, the server answered and closed the connection while the upload was still
 * arriving: the kernel then resets the connection, and a client that reads only after writing its whole request (as
 * many HTTP clients do) lost the answer and saw EPIPE or ECONNRESET instead (the fuzz drill's lost 413s; a 16 MiB
 * upload lost every one).
 */
export function answerAfterUnreadBody(app: FastifyInstance): void {
  // A callback hook: every response passes here, and almost every one has its body read (no promise for those).
  app.addHook('onSend', (request, _reply, payload, done) => {
    const raw = request.raw;
    // Declared beyond what would be read anyway: answered now.
    if (raw.complete || !hasBody(raw) || Number(raw.headers['content-length']) > UNREAD_BODY_DRAIN_BYTES)
      return done(null, payload);
    void drain(raw, UNREAD_BODY_DRAIN_BYTES, UNREAD_BODY_DRAIN_MS).then(() => done(null, payload));
  });
}

const hasBody = (raw: IncomingMessage): boolean =>
  raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length']) > 0;

/** Reads and discards the rest of a request body: until its end, `maxBytes` read, `maxMs` elapsed or an error. */
function drain(raw: IncomingMessage, maxBytes: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (raw.readableEnded || raw.destroyed) return resolve();
    let read = 0;
    const stop = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', stop);
      raw.off('error', stop);
      raw.off('close', stop);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) {
        raw.pause();
        stop();
      }
    };
    const timer = setTimeout(() => {
      raw.pause();
      stop();
    }, maxMs);
    raw.on('data', onData);
    raw.once('end', stop);
    raw.once('error', stop);
    raw.once('close', stop);
    raw.resume();
  });
}
