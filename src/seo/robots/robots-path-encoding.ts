/**
 * Canonical forms for comparing rule paths with URL paths (RFC 9309 §2.2.2):
 * - octets outside ASCII (and ASCII that may not appear raw in a URI) are percent-encoded, hex upper-case;
 * - escapes of unreserved characters are decoded (`/%7Efoo` == `/~foo`), other escapes stay encoded
 *   (`/a%2Fb` is not `/a/b`);
 * - in the query, `:` `/` `?` `@` are data either way, so their escapes are decoded
 *   (`?u=https%3A%2F%2Fx` == `?u=https://x`, the RFC's Figure 4);
 * - a literal `*` or `$` in a URL is compared as `%2A` / `%24`, so a rule can name them (§2.2.3, Figure 6).
 * In a canonical pattern `*` is therefore always the wildcard and a final `$` always the anchor.
 */

const HEX_ESCAPES: string[] = Array.from(
  { length: 256 },
  (_, b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
);

/** ASCII kept as is: unreserved, gen-delims but `#`, sub-delims but `*` and `$` (handled apart). */
const KEEP_ASCII = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?[]@!&'()+,;=") {
  KEEP_ASCII[ch.charCodeAt(0)] = 1;
}

const UNRESERVED = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~') {
  UNRESERVED[ch.charCodeAt(0)] = 1;
}

/** Strings made only of characters that never need rewriting are already canonical. */
const CANONICAL_URL_PATH = /^[A-Za-z0-9\-._~:/?[\]@!&'()+,;=]*$/;
const CANONICAL_PATTERN = /^[A-Za-z0-9\-._~:/?[\]@!&'()+,;=*]*\$?$/;

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

function isQueryData(byte: number): boolean {
  return byte === 0x3a || byte === 0x2f || byte === 0x3f || byte === 0x40;
}

function utf8Escapes(codePoint: number): string {
  if (codePoint < 0x800) {
    return HEX_ESCAPES[0xc0 | (codePoint >> 6)] + HEX_ESCAPES[0x80 | (codePoint & 0x3f)];
  }
  if (codePoint < 0x10000) {
    return (
      HEX_ESCAPES[0xe0 | (codePoint >> 12)] +
      HEX_ESCAPES[0x80 | ((codePoint >> 6) & 0x3f)] +
      HEX_ESCAPES[0x80 | (codePoint & 0x3f)]
    );
  }
  return (
    HEX_ESCAPES[0xf0 | (codePoint >> 18)] +
    HEX_ESCAPES[0x80 | ((codePoint >> 12) & 0x3f)] +
    HEX_ESCAPES[0x80 | ((codePoint >> 6) & 0x3f)] +
    HEX_ESCAPES[0x80 | (codePoint & 0x3f)]
  );
}

function canonicalize(input: string, isPattern: boolean): string {
  if ((isPattern ? CANONICAL_PATTERN : CANONICAL_URL_PATH).test(input)) return input;
  const n = input.length;
  let out = '';
  let runStart = 0;
  let inQuery = false;
  for (let i = 0; i < n; i++) {
    const code = input.charCodeAt(i);
    let replacement: string | null = null;
    let consumed = 1;
    if (code === 0x25 /* % */) {
      const hi = hexValue(input.charCodeAt(i + 1));
      const lo = hi < 0 ? -1 : hexValue(input.charCodeAt(i + 2));
      if (lo < 0) {
        replacement = '%25';
      } else {
        const byte = hi * 16 + lo;
        consumed = 3;
        replacement =
          (byte < 0x80 && UNRESERVED[byte] === 1) || (inQuery && isQueryData(byte))
            ? String.fromCharCode(byte)
            : HEX_ESCAPES[byte];
      }
    } else if (code === 0x3f /* ? */) {
      inQuery = true;
    } else if (code === 0x2a /* * */) {
      if (!isPattern) replacement = '%2A';
    } else if (code === 0x24 /* $ */) {
      if (!isPattern || i !== n - 1) replacement = '%24';
    } else if (code < 0x80) {
      if (KEEP_ASCII[code] !== 1) replacement = HEX_ESCAPES[code];
    } else {
      let codePoint = code;
      if (code >= 0xd800 && code <= 0xdbff) {
        const low = input.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          codePoint = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          consumed = 2;
        } else {
          codePoint = 0xfffd;
        }
      } else if (code >= 0xdc00 && code <= 0xdfff) {
        codePoint = 0xfffd;
      }
      replacement = utf8Escapes(codePoint);
    }
    if (replacement !== null) {
      out += input.slice(runStart, i) + replacement;
      runStart = i + consumed;
    }
    i += consumed - 1;
  }
  return runStart === 0 ? input : out + input.slice(runStart);
}

/** Canonical form of a URL's path and query (no fragment), for matching. */
export function canonicalUrlPath(pathAndQuery: string): string {
  return canonicalize(pathAndQuery, false);
}

/** Canonical form of a rule path: `*` stays the wildcard, a final `$` stays the anchor. */
export function canonicalRulePattern(pattern: string): string {
  return canonicalize(pattern, true);
}

const SCHEME_AND_AUTHORITY = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/[^/?#]*/;

/**
 * The part of a URL robots rules are matched against: path plus `?query`, without the fragment.
 * Accepts absolute URLs, `//host/...`, and paths; an empty path is `/`.
 */
export function robotsPathOf(url: string): string {
  let s = url.trim();
  const hash = s.indexOf('#');
  if (hash >= 0) s = s.slice(0, hash);
  const authority = SCHEME_AND_AUTHORITY.exec(s);
  if (authority !== null) s = s.slice(authority[0].length);
  if (s.length === 0) return '/';
  return s.charCodeAt(0) === 0x2f ? s : `/${s}`;
}
