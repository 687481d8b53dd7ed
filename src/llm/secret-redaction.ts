/**
 * Strips credentials from data bound for a third-party model: crawled URLs carry API keys and session
 * tokens in query strings more often than one would hope, and evidence copies them verbatim.
 */

export const REDACTED = 'REDACTED';

/** Words that, as a whole word of a parameter or field name, mark its value as a credential. */
const SECRET_WORDS = new Set([
  'key',
  'apikey',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'auth',
  'authorization',
  'signature',
  'sig',
  'session',
  'sessionid',
  'sid',
  'credential',
  'credentials',
  'jwt',
  'otp',
  'cookie',
  'bearer',
  'privatekey',
  'accesskey',
  'accesstoken',
  'refreshtoken',
  'clientsecret',
  'xsrf',
  'csrf',
]);

/** Well-known credential formats that may appear anywhere in text. */
const TOKEN_PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI-style keys
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key id
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API key
];

/** `api_key`, `apiKey`, `X-Amz-Signature`, `access-token` are secret names; `keyword` and `author` are not. */
export function isSecretName(name: string): boolean {
  const squashed = name.toLowerCase().replace(/[^a-z]/g, '');
  if (SECRET_WORDS.has(squashed)) return true;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => SECRET_WORDS.has(word));
}

/** A URL without userinfo and with secret-named query (and fragment) parameter values replaced. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactQueryPairs(url);
  }
  let changed = false;
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = '';
    parsed.password = '';
    changed = true;
  }
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    if (isSecretName(name)) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  // OAuth implicit flows put tokens in the fragment: #access_token=...
  const fragment = parsed.hash.length > 1 && parsed.hash.includes('=') ? redactQueryPairs(parsed.hash.slice(1)) : null;
  if (fragment !== null) parsed.hash = fragment;
  // Untouched URLs keep their exact spelling (URL serialization would re-encode them).
  const href = changed || fragment !== null ? parsed.href : url;
  return redactTokens(href);
}

/** Redacts URLs, `name=value` pairs with secret names and well-known token formats inside free text. */
export function redactText(text: string): string {
  const withUrls = text.replace(/\bhttps?:\/\/[^\s"'<>`]+/gi, (match) => redactUrl(match));
  return redactTokens(redactQueryPairs(withUrls));
}

/**
 * A JSON-like value with every string redacted and bounded, secret-named fields blanked, and nesting,
 * array length and key count capped so one oversized evidence field cannot crowd out the rest.
 */
export function redactValue(
  value: unknown,
  limits: { stringChars: number; arrayItems: number; objectKeys: number; depth: number },
  depth = 0,
): unknown {
  if (typeof value === 'string') return clip(redactText(value), limits.stringChars);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (depth >= limits.depth) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, limits.arrayItems).map((item) => redactValue(item, limits, depth + 1));
    if (value.length > limits.arrayItems) items.push(`… ${value.length - limits.arrayItems} more`);
    return items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value as Record<string, unknown>).slice(0, limits.objectKeys)) {
      out[clip(key, 60)] = isSecretName(key) ? REDACTED : redactValue(entry, limits, depth + 1);
    }
    return out;
  }
  return undefined;
}

function redactQueryPairs(text: string): string {
  return text.replace(/(^|[?&;#\s])([A-Za-z0-9_.[\]-]{1,64})=([^&;#\s"'<>]*)/g, (match, lead: string, name: string) =>
    isSecretName(name) ? `${lead}${name}=${REDACTED}` : match,
  );
}

function redactTokens(text: string): string {
  let out = text;
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
