/** Parsers for the structured security and caching headers the analyzer reads. */

export interface HstsPolicy {
  valid: boolean;
  /** Why the header is invalid (browsers then ignore it). */
  error?: string;
  maxAge: number | null;
  includeSubDomains: boolean;
  preload: boolean;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).replace(/\\(.)/g, '$1')
    : trimmed;
}

/** RFC 6797 §6.1: `;`-separated directives, each at most once, `max-age` required as delta-seconds. */
export function parseHsts(value: string): HstsPolicy {
  const policy: HstsPolicy = { valid: false, maxAge: null, includeSubDomains: false, preload: false };
  const seen = new Set<string>();
  for (const raw of value.split(';')) {
    const directive = raw.trim();
    if (directive === '') continue;
    const eq = directive.indexOf('=');
    const name = (eq === -1 ? directive : directive.slice(0, eq)).trim().toLowerCase();
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
      return { ...policy, error: `malformed directive "${directive}"` };
    }
    if (seen.has(name)) return { ...policy, error: `directive "${name}" appears more than once` };
    seen.add(name);
    if (name === 'max-age') {
      const seconds = eq === -1 ? '' : unquote(directive.slice(eq + 1));
      if (!/^\d+$/.test(seconds)) return { ...policy, error: 'max-age is not a number of seconds' };
      policy.maxAge = Number(seconds);
    } else if (name === 'includesubdomains') {
      policy.includeSubDomains = true;
    } else if (name === 'preload') {
      policy.preload = true;
    }
  }
  if (policy.maxAge === null) return { ...policy, error: 'the required max-age directive is missing' };
  return { ...policy, valid: true };
}

/** One Content-Security-Policy: directive name (lower-case) -> source expressions. */
export type CspPolicy = ReadonlyMap<string, readonly string[]>;

/**
 * Parses Content-Security-Policy header values. A header may carry several policies separated by
 * commas, and every policy is enforced; within a policy a repeated directive is ignored (CSP3 §2.2).
 */
export function parseCsp(values: readonly string[]): CspPolicy[] {
  const policies: CspPolicy[] = [];
  for (const value of values) {
    for (const serialized of value.split(',')) {
      const policy = new Map<string, string[]>();
      for (const raw of serialized.split(';')) {
        const tokens = raw
          .trim()
          .split(/[\t\n\f\r ]+/)
          .filter((token) => token !== '');
        if (tokens.length === 0) continue;
        const name = tokens[0].toLowerCase();
        if (!policy.has(name)) policy.set(name, tokens.slice(1));
      }
      if (policy.size > 0) policies.push(policy);
    }
  }
  return policies;
}

/** The directive that governs scripts in a policy: script-src, else default-src. */
export function scriptSourceDirective(policy: CspPolicy): { name: string; sources: readonly string[] } | null {
  for (const name of ['script-src', 'default-src']) {
    const sources = policy.get(name);
    if (sources) return { name, sources };
  }
  return null;
}

export interface CacheControl {
  maxAge: number | null;
  sMaxAge: number | null;
  noStore: boolean;
  noCache: boolean;
  isPrivate: boolean;
  immutable: boolean;
}

export function parseCacheControl(values: readonly string[]): CacheControl {
  const result: CacheControl = {
    maxAge: null,
    sMaxAge: null,
    noStore: false,
    noCache: false,
    isPrivate: false,
    immutable: false,
  };
  for (const value of values) {
    for (const raw of value.split(',')) {
      const directive = raw.trim();
      if (directive === '') continue;
      const eq = directive.indexOf('=');
      const name = (eq === -1 ? directive : directive.slice(0, eq)).trim().toLowerCase();
      const argument = eq === -1 ? '' : unquote(directive.slice(eq + 1));
      const seconds = /^\d+$/.test(argument) ? Number(argument) : null;
      switch (name) {
        case 'max-age':
          result.maxAge ??= seconds;
          break;
        case 's-maxage':
          result.sMaxAge ??= seconds;
          break;
        case 'no-store':
          result.noStore = true;
          break;
        case 'no-cache':
          result.noCache = true;
          break;
        case 'private':
          result.isPrivate = true;
          break;
        case 'immutable':
          result.immutable = true;
          break;
        default:
          break;
      }
    }
  }
  return result;
}

export const REFERRER_POLICIES = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
] as const;

export type ReferrerPolicy = (typeof REFERRER_POLICIES)[number];

const REFERRER_POLICY_SET: ReadonlySet<string> = new Set(REFERRER_POLICIES);

/**
 * The policy browsers apply: the header is a comma-separated fallback list and the LAST value they
 * recognise wins (Referrer Policy §8.1); unknown tokens are skipped. Null when none is recognised.
 */
export function effectiveReferrerPolicy(values: readonly string[]): ReferrerPolicy | null {
  let effective: ReferrerPolicy | null = null;
  for (const value of values) {
    for (const token of value.split(',')) {
      const policy = token.trim().toLowerCase();
      if (REFERRER_POLICY_SET.has(policy)) effective = policy as ReferrerPolicy;
    }
  }
  return effective;
}

/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaTypeOf(contentType: string | null): string | null {
  if (contentType === null) return null;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === '' ? null : type;
}
