/**
 * Product tokens are RFC 9309 identifiers (letters, '-', '_'); digits are accepted too because
 * real crawlers use them (MJ12bot, 360Spider) and both sides are read the same way.
 */
const TOKEN_PREFIX = /^[A-Za-z0-9_-]+/;
const COMPATIBLE_TOKEN = /compatible;\s*([A-Za-z0-9_-]+)/i;

/**
 * The product token a crawler matches groups with, lower-cased: `Googlebot/2.1 (+http://...)` ->
 * `googlebot`. Browser-style strings name the crawler after `compatible;`
 * (`Mozilla/5.0 (compatible; Googlebot/2.1; ...)`). `*` stays `*`.
 */
export function crawlerProductToken(userAgent: string): string {
  const ua = userAgent.trim();
  if (ua === '*') return '*';
  const compatible = COMPATIBLE_TOKEN.exec(ua);
  if (compatible !== null) return compatible[1].toLowerCase();
  const prefix = TOKEN_PREFIX.exec(ua);
  return prefix === null ? '' : prefix[0].toLowerCase();
}

export interface GroupAgentToken {
  /** Lower-cased product token, `*`, or '' when the value names no product. */
  token: string;
  /** True when the value holds more than the token (e.g. `Googlebot/2.1`), which is ignored. */
  hasExtra: boolean;
}

/** Reads the value of a `user-agent` line the way Google does: `* anything` is still the global group. */
export function groupAgentToken(value: string): GroupAgentToken {
  if (value === '*') return { token: '*', hasExtra: false };
  if (value.startsWith('*') && /^\*\s/.test(value)) return { token: '*', hasExtra: true };
  const prefix = TOKEN_PREFIX.exec(value);
  if (prefix === null) return { token: '', hasExtra: value.length > 0 };
  return { token: prefix[0].toLowerCase(), hasExtra: prefix[0].length !== value.length };
}
