import { Buffer, isUtf8 } from 'node:buffer';
import { ROBOTS_MAX_BYTES } from './robots.types.js';

export interface DecodingProblem {
  /** Index into `text` where the problem shows. */
  index: number;
  message: string;
}

export interface DecodedRobotsText {
  /** The text to parse: BOM removed, cut to the size limit at a line boundary. */
  text: string;
  sizeBytes: number;
  truncated: boolean;
  problems: DecodingProblem[];
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Turns the raw body into the text a crawler would parse: strips a UTF-8 BOM, keeps the first
 * ROBOTS_MAX_BYTES and reports content that is not UTF-8 text.
 */
export function decodeRobotsText(input: string | Uint8Array): DecodedRobotsText {
  if (typeof input === 'string') {
    const sizeBytes = Buffer.byteLength(input, 'utf8');
    if (sizeBytes > ROBOTS_MAX_BYTES) return decodeBytes(Buffer.from(input, 'utf8'));
    const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    return { text, sizeBytes, truncated: false, problems: nulProblems(text) };
  }
  return decodeBytes(input);
}

function decodeBytes(bytes: Uint8Array): DecodedRobotsText {
  const sizeBytes = bytes.length;
  const problems: DecodingProblem[] = [];
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16) {
    problems.push({
      index: 0,
      message: 'file is UTF-16 encoded: robots.txt must be UTF-8, crawlers cannot read these rules',
    });
  }
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const truncated = sizeBytes > ROBOTS_MAX_BYTES;
  const end = truncated ? cutPoint(bytes, ROBOTS_MAX_BYTES) : sizeBytes;
  const slice = bytes.subarray(start, Math.max(start, end));
  const text = Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength).toString('utf8');
  if (!utf16 && !isUtf8(slice)) {
    problems.push({
      index: Math.max(0, text.indexOf('\ufffd')),
      message: 'file is not valid UTF-8: robots.txt must be UTF-8 text, invalid bytes cannot match any URL',
    });
  }
  if (!utf16) problems.push(...nulProblems(text));
  return { text, sizeBytes, truncated, problems };
}

/** Where to stop reading: after the last complete line within the limit, so no rule is cut in half. */
function cutPoint(bytes: Uint8Array, limit: number): number {
  const next = bytes[limit];
  if (next === LF || next === CR) return limit + 1;
  const lastBreak = Math.max(bytes.lastIndexOf(LF, limit - 1), bytes.lastIndexOf(CR, limit - 1));
  if (lastBreak >= 0) return lastBreak + 1;
  // One giant line: cut at the limit, backing off to a UTF-8 character boundary.
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return end;
}

function nulProblems(text: string): DecodingProblem[] {
  const index = text.indexOf('\0');
  if (index < 0) return [];
  return [{ index, message: 'file contains NUL bytes: it is binary, not a UTF-8 text file' }];
}
