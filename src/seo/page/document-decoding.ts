import { charsetOf } from './header-values.js';

const META_CHARSET_RE = /<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_:.-]+)/i;

/**
 * Decodes document bytes the way a browser would in the common cases: BOM, then the Content-Type
 * charset, then a meta charset in the first 1024 bytes (HTML prescan), else UTF-8.
 */
export function decodeDocument(bytes: Uint8Array, contentType: string | null): string {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder('utf-8').decode(bytes);
  }
  if (bytes.length >= 2 && ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe))) {
    return new TextDecoder(bytes[0] === 0xfe ? 'utf-16be' : 'utf-16le').decode(bytes);
  }
  const declared = charsetOf(contentType) ?? sniffMetaCharset(bytes);
  const decoder = new TextDecoder(decoderLabel(declared));
  const text = decoder.decode(bytes);
  // Node 20's windows-1252 (also "latin1", "iso-8859-1") decoder returns C1 controls for 0x80-0x9F.
  return decoder.encoding === 'windows-1252'
    ? text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80])
    : text;
}

/** WHATWG windows-1252 mapping of bytes 0x80-0x9F (undefined positions keep their C1 code point). */
const WINDOWS_1252_C1 = [
  '\u20ac',
  '\u0081',
  '\u201a',
  '\u0192',
  '\u201e',
  '\u2026',
  '\u2020',
  '\u2021',
  '\u02c6',
  '\u2030',
  '\u0160',
  '\u2039',
  '\u0152',
  '\u008d',
  '\u017d',
  '\u008f',
  '\u0090',
  '\u2018',
  '\u2019',
  '\u201c',
  '\u201d',
  '\u2022',
  '\u2013',
  '\u2014',
  '\u02dc',
  '\u2122',
  '\u0161',
  '\u203a',
  '\u0153',
  '\u009d',
  '\u017e',
  '\u0178',
];

function sniffMetaCharset(bytes: Uint8Array): string | null {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  const match = META_CHARSET_RE.exec(head);
  return match ? match[1].toLowerCase() : null;
}

function decoderLabel(charset: string | null): string {
  if (!charset) return 'utf-8';
  try {
    new TextDecoder(charset);
    return charset;
  } catch {
    return 'utf-8';
  }
}
