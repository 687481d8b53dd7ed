import { Readable, Transform, pipeline } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { SafeHttpError } from './safe-http-error.js';

/** What to do when a body exceeds the byte cap: fail with BODY_TOO_LARGE, or keep the first maxBytes. */
export type BodyLimitMode = 'error' | 'truncate';

export interface CappedBodyOptions {
  /** Raw `Content-Encoding` header value; null or `identity` means no decoding. */
  contentEncoding: string | null;
  maxBytes: number;
  onLimit: BodyLimitMode;
  /** Maps transport errors (undici, zlib) onto SafeHttpError. */
  mapError: (error: unknown) => SafeHttpError;
}

type DecoderFactory = () => Transform;

// Node 20 has no zstd; newer runtimes do, so use it when present (we never ask for it).
const zstdFactory = (zlib as unknown as { createZstdDecompress?: DecoderFactory }).createZstdDecompress;

const DECODERS: Record<string, DecoderFactory | undefined> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
  zstd: zstdFactory ? () => zstdFactory() : undefined,
};

/**
 * Splits a Content-Encoding header into the codings to undo, outermost first.
 * Returns null when one of them is unknown: the body is then passed through undecoded.
 */
export function decodingPlan(contentEncoding: string | null): string[] | null {
  if (contentEncoding === null) return [];
  const codings = contentEncoding
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  return codings.every((coding) => DECODERS[coding] !== undefined) ? codings : null;
}

/** A zlib-wrapped deflate stream starts with CMF/FLG bytes whose 16-bit value is a multiple of 31. */
function looksLikeZlibHeader(chunk: Buffer): boolean {
  return chunk.length >= 2 && (chunk[0] & 0x0f) === 8 && ((chunk[0] << 8) | chunk[1]) % 31 === 0;
}

/** Peeks at the first chunk (left in the stream) or null for an empty body. */
function peekFirstChunk(source: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
    };
    const onReadable = (): void => {
      const chunk = source.read() as Buffer | null;
      if (chunk !== null) {
        cleanup();
        // Put it back synchronously: a later unshift could come after 'end' was already emitted.
        source.unshift(chunk);
        resolve(chunk);
      }
    };
    const onEnd = (): void => {
      cleanup();
      resolve(null);
    };
    const onError = (error: unknown): void => {
      cleanup();
      reject(error);
    };
    const onClose = (): void => {
      cleanup();
      reject(source.errored ?? new Error('response body closed before any data'));
    };
    source.on('readable', onReadable);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
  });
}

/**
 * The decoded response body as a Node Readable that never yields more than `maxBytes`.
 * The cap is enforced on decoded bytes (so a gzip bomb stops after maxBytes of output, with
 * backpressure keeping zlib from inflating ahead) and, as a guard, on bytes received.
 * `bytes`, `encodedBytes` and `truncated` are final once the stream has ended.
 */
export class CappedBodyStream extends Readable {
  /** Decoded bytes delivered so far. */
  bytes = 0;
  /** Bytes received on the wire so far (before decompression). */
  encodedBytes = 0;
  /** True when the body was cut at maxBytes (only with onLimit 'truncate'). */
  truncated = false;
  /** False when the Content-Encoding was unknown and the bytes are passed through as received. */
  readonly decoded: boolean;

  private readonly source: Readable;
  private readonly options: CappedBodyOptions;
  private readonly plan: string[];
  private stages: Readable[] = [];
  private output: Readable | null = null;
  private attached = false;
  private finished = false;
  /** Set by readAll(): chunks are gathered here instead of passing through this stream's buffer. */
  private collector: { chunks: Buffer[]; resolve: (body: Buffer) => void; reject: (error: Error) => void } | null =
    null;

  constructor(source: Readable, options: CappedBodyOptions) {
    super();
    this.source = source;
    this.options = options;
    const plan = decodingPlan(options.contentEncoding);
    this.decoded = plan !== null;
    this.plan = plan ?? [];
  }

  override _construct(callback: (error?: Error | null) => void): void {
    if (this.plan.length === 0) {
      this.attach(this.source);
      callback();
      return;
    }
    // Peek at the first chunk: an empty body has nothing to inflate, and "deflate" may be raw or zlib-wrapped.
    peekFirstChunk(this.source).then(
      (first) => {
        if (first === null) {
          this.attach(null);
        } else {
          this.attach(this.buildDecoders(first));
        }
        callback();
      },
      (error: unknown) => callback(this.options.mapError(error)),
    );
  }

  private buildDecoders(first: Buffer): Readable {
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void => {
        this.encodedBytes += chunk.length;
        if (this.encodedBytes > this.options.maxBytes) {
          done();
          this.overflow(null);
          return;
        }
        done(null, chunk);
      },
    });
    const decoders = this.plan.map((coding, index) =>
      coding === 'deflate' && index === 0 && !looksLikeZlibHeader(first)
        ? zlib.createInflateRaw()
        : DECODERS[coding]!(),
    );
    this.stages = [counter, ...decoders];
    // Errors surface on the last stage and are handled by attach(); the callback only prevents double reporting.
    return pipeline([this.source, counter, ...decoders], () => undefined) as unknown as Readable;
  }

  private attach(output: Readable | null): void {
    this.output = output;
    this.attached = true;
    if (output === null) {
      if (this.collector) this.onEnd();
      return;
    }
    output.pause();
    output.on('data', this.onData);
    output.on('end', this.onEnd);
    output.on('error', this.onError);
    if (this.collector) output.resume();
  }

  /**
   * The whole body as one Buffer, for a consumer that wants nothing else (instead of iterating this
   * stream): chunks go straight into a list, skipping this stream's buffering and an async iterator per
   * chunk. Same caps and errors as reading the stream. Call it before reading the stream in any other way.
   */
  readAll(): Promise<Buffer> {
    if (this.destroyed)
      return Promise.reject(
        this.errored ?? new SafeHttpError('BAD_RESPONSE', 'The response body was closed before it ended'),
      );
    if (this.collector || this.readableDidRead || this.readableLength > 0 || this.finished) {
      throw new Error('readAll() must be the only reader of the body');
    }
    // Failures reach the caller through the promise; nobody else listens to this stream.
    this.on('error', () => undefined);
    return new Promise<Buffer>((resolve, reject) => {
      this.collector = { chunks: [], resolve, reject };
      if (!this.attached) return; // _construct attaches (and resumes) the decoded output later
      if (this.output === null) this.onEnd();
      else this.output.resume();
    });
  }

  private readonly onData = (chunk: Buffer): void => {
    if (this.finished) return;
    if (this.output === this.source) this.encodedBytes += chunk.length;
    const remaining = this.options.maxBytes - this.bytes;
    if (chunk.length > remaining) {
      this.overflow(remaining > 0 ? chunk.subarray(0, remaining) : null);
      return;
    }
    this.bytes += chunk.length;
    if (this.collector) this.collector.chunks.push(chunk);
    else if (!this.push(chunk)) this.output?.pause();
  };

  private readonly onEnd = (): void => {
    if (this.finished) return;
    this.finished = true;
    this.push(null);
    this.settleCollector();
  };

  private settleCollector(): void {
    const collector = this.collector;
    if (collector === null) return;
    this.collector = null;
    collector.resolve(Buffer.concat(collector.chunks, this.bytes));
    // Nobody reads this stream: end it here (its upstream has ended or is released).
    this.destroy();
  }

  private readonly onError = (error: unknown): void => {
    if (this.finished) return;
    this.destroy(this.options.mapError(error));
  };

  private overflow(lastSlice: Buffer | null): void {
    if (this.finished) return;
    if (this.options.onLimit === 'error') {
      this.destroy(
        new SafeHttpError('BODY_TOO_LARGE', `The response body exceeds the limit of ${this.options.maxBytes} bytes`),
      );
      return;
    }
    if (lastSlice !== null) {
      this.bytes += lastSlice.length;
      if (this.collector) this.collector.chunks.push(lastSlice);
      else this.push(lastSlice);
    }
    this.truncated = true;
    this.finished = true;
    this.push(null);
    // Stop downloading: the rest of the body is not wanted.
    this.releaseUpstream();
    this.settleCollector();
  }

  override _read(): void {
    if (this.output === null) {
      if (!this.finished) {
        this.finished = true;
        this.push(null);
      }
      return;
    }
    this.output.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.finished = true;
    this.releaseUpstream();
    const collector = this.collector;
    this.collector = null;
    collector?.reject(error ?? new SafeHttpError('BAD_RESPONSE', 'The response body was closed before it ended'));
    callback(error);
  }

  private releaseUpstream(): void {
    const output = this.output;
    if (output !== null) {
      output.off('data', this.onData);
      output.off('end', this.onEnd);
      output.off('error', this.onError);
    }
    for (const stream of [this.source, ...this.stages]) {
      if (!stream.destroyed) {
        stream.on('error', () => undefined);
        stream.destroy();
      }
    }
  }
}
