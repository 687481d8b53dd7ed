import { Readable, type TransformOptions } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { createGunzip } from 'node:zlib';
import type { SitemapInput, SitemapIssueCode } from './sitemap.types.js';

/**
 * Chunk size for slicing in-memory input and for gunzip output: big enough to amortise, small enough to stay bounded.
 */
const CHUNK = 64 * 1024;

/** A problem with the bytes themselves (not the XML): reported as an error, and the parse stops. */
export class SitemapInputError extends Error {
  constructor(
    readonly code: SitemapIssueCode,
    message: string,
  ) {
    super(message);
  }
}

/** What the reader learnt about the input, filled in while the text is consumed. */
export interface SitemapInputInfo {
  sizeBytes: number;
  compressed: boolean;
}

function formatBytes(bytes: number): string {
  return bytes >= 1_048_576 && bytes % 1_048_576 === 0
    ? `${bytes / 1_048_576} MiB`
    : `${bytes.toLocaleString('en-US')} bytes`;
}

function sizeError(maxBytes: number): SitemapInputError {
  return new SitemapInputError(
    'SIZE_LIMIT',
    `The sitemap is larger than ${formatBytes(maxBytes)} uncompressed; parsing stopped (the protocol ` +
      `allows at most 50 MiB)`,
  );
}

/**
 * Turns any accepted input into UTF-8-decoded text chunks, decompressing gzip (detected by its magic
 * bytes) as a stream and stopping with SIZE_LIMIT as soon as the uncompressed size passes `maxBytes`,
 * so a decompression bomb is never inflated past the cap.
 */
export async function* readSitemapText(
  input: SitemapInput,
  maxBytes: number,
  info: SitemapInputInfo,
): AsyncGenerator<string> {
  if (typeof input === 'string') {
    yield* sliceString(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input, maxBytes, info);
    return;
  }
  const source = input instanceof Uint8Array ? sliceBytes(input) : toBytes(input);
  const iterator = source[Symbol.asyncIterator]();
  try {
    // Sniff at least two bytes: enough for the gzip magic and the UTF-16 byte order marks.
    const head: Uint8Array[] = [];
    let headLength = 0;
    while (headLength < 2) {
      const next = await iterator.next();
      if (next.done === true) break;
      head.push(next.value);
      headLength += next.value.length;
    }
    const first = head.length === 1 ? head[0] : Buffer.concat(head);
    const rest = resume(first, iterator);
    if (first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b) {
      info.compressed = true;
      yield* decode(gunzip(rest), maxBytes, info);
    } else {
      rejectForeignFormats(first);
      yield* decode(rest, maxBytes, info);
    }
  } finally {
    // Not awaited: a stalled network stream must not hold the result back; closing it is enough.
    iterator.return?.(undefined)?.catch(() => undefined);
  }
}

function rejectForeignFormats(bytes: Uint8Array): void {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new SitemapInputError('UNSUPPORTED_ENCODING', 'The sitemap is UTF-16 encoded; the protocol requires UTF-8');
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    throw new SitemapInputError(
      'BINARY_CONTENT',
      'The content is a ZIP archive; sitemaps may only be plain XML or gzip-compressed XML',
    );
  }
}

function* sliceString(text: string, maxBytes: number, info: SitemapInputInfo): Generator<string> {
  for (let start = 0; start < text.length; start += CHUNK) {
    const chunk = text.slice(start, start + CHUNK);
    info.sizeBytes += Buffer.byteLength(chunk);
    if (info.sizeBytes > maxBytes) throw sizeError(maxBytes);
    yield chunk;
  }
}

async function* sliceBytes(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += CHUNK) yield bytes.subarray(start, start + CHUNK);
}

async function* toBytes(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    // Re-slice big chunks so the byte cap and the parser see bounded pieces.
    for (let start = 0; start < bytes.length; start += CHUNK) yield bytes.subarray(start, start + CHUNK);
  }
}

async function* resume(first: Uint8Array, iterator: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (first.length > 0) yield first;
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
}

async function* gunzip(compressed: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  // Read-ahead stated, not left to Node's defaults (Node 22 raised them from 16 to 64 KiB, which pulls four times as
  // much of a bomb's compressed bytes before the inflater's output is refused): one chunk from the source, and 16 KiB
  // queued in front of the inflater.
  // zlib streams take Transform's options too (Node's docs), which its typings leave out.
  const queue: Pick<TransformOptions, 'writableHighWaterMark'> = { writableHighWaterMark: 16 * 1024 };
  const inflater = createGunzip({ chunkSize: CHUNK, ...queue });
  const source = Readable.from(compressed, { objectMode: false, highWaterMark: 1 });
  source.on('error', (error) => inflater.destroy(error));
  source.pipe(inflater);
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } catch (error) {
    // zlib errors carry Z_* codes; anything else (a failing source stream) is the caller's to handle.
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('Z_')) throw error;
    throw new SitemapInputError('GZIP_ERROR', `The gzip data is corrupt or truncated (${(error as Error).message})`);
  } finally {
    // Stops the inflater mid-bomb and tells the upstream source to stop producing.
    source.unpipe(inflater);
    inflater.destroy();
    source.destroy();
  }
}

async function* decode(
  bytes: AsyncIterable<Uint8Array>,
  maxBytes: number,
  info: SitemapInputInfo,
): AsyncGenerator<string> {
  // isUtf8 + toString (simdutf) rather than a fatal TextDecoder: same checks, about 5x faster.
  let pending: Uint8Array | null = null;
  let first = true;
  for await (const chunk of bytes) {
    info.sizeBytes += chunk.length;
    if (info.sizeBytes > maxBytes) throw sizeError(maxBytes);
    const data: Uint8Array = pending === null ? chunk : Buffer.concat([pending, chunk]);
    const end = data.length - incompleteTail(data);
    const complete = data.subarray(0, end);
    if (!isUtf8(complete)) {
      // Parse the valid part first so the error lands on the line of the bad bytes.
      const validEnd = validUtf8Prefix(complete);
      if (validEnd > 0) yield utf8Text(complete.subarray(0, validEnd), first);
      throw invalidUtf8();
    }
    pending = end < data.length ? data.slice(end) : null;
    if (end === 0) continue;
    yield utf8Text(complete, first);
    first = false;
  }
  if (pending !== null) throw invalidUtf8();
}

function utf8Text(bytes: Uint8Array, first: boolean): string {
  const start = first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8', start);
}

/** Bytes at the end of `bytes` that start a character the next chunk completes (0 to 3). */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return size > back ? back : 0;
  }
  return 0;
}

function invalidUtf8(): SitemapInputError {
  return new SitemapInputError(
    'INVALID_UTF8',
    'The content is not valid UTF-8 (binary data, or another encoding); sitemaps must be UTF-8',
  );
}

/** Length of the leading well-formed UTF-8 in `bytes`. */
function validUtf8Prefix(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    const extra =
      lead < 0x80
        ? 0
        : lead >= 0xc2 && lead <= 0xdf
          ? 1
          : lead >= 0xe0 && lead <= 0xef
            ? 2
            : lead >= 0xf0 && lead <= 0xf4
              ? 3
              : -1;
    if (extra < 0 || i + extra >= bytes.length) break;
    let ok = true;
    for (let k = 1; k <= extra; k++) if ((bytes[i + k] & 0xc0) !== 0x80) ok = false;
    if (!ok) break;
    i += extra + 1;
  }
  return i;
}
