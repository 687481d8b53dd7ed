import { siteKey } from '../seo/page/index.js';
import type { CrawlScope, QueryParameterMode } from './crawl.types.js';

/**
 * A crawl's scope, compiled once per crawl: which URLs are the site's (its host, www-insensitive, and its subdomains
 * when asked), which of them the include and exclude patterns let through, and the URL each one is crawled as (no
 * fragment, query parameters dropped as asked, the others kept in their order and spelling).
 *
 * Patterns are matched against the URL's path and query (`/blog/post?page=2`), after the query was normalized:
 * - a glob, anchored at both ends: `*` matches any run of characters but `/`, `**` any run at all, `?` one character
 *   but `/`; every other character is itself (`/blog/**`, `/**?sort=*`, `/shop/*.html`);
 * - a regular expression written `/…/flags` (flags `i`, `m`, `s`, `u`), searched anywhere in the path and query
 *   (`/^\/blog\//`, `/[?&]sort=/`). It must compile as JavaScript, and it runs on a matcher of our own in time
 *   linear in the URL's length (a Pike VM over a Thompson NFA), never on the backtracking RegExp engine: no pattern
 *   can make a crawl hang (catastrophic backtracking), nested quantifiers included. Back-references and lookaround
 *   assertions, which no linear-time matcher supports, are refused with a clear message.
 *
 * A pattern is matched against each spelling of the path and query a server may take for the same resource
 * (`scopeTargets`): the URL as the WHATWG parser leaves it (dot segments, `%2e` ones included, resolved; nothing
 * decoded), the same percent-decoded once with `\` read as `/` and dot segments resolved again (so `/%70rivate/x`,
 * `/private%2Fx` and `/a/..%2Fprivate/x` are `/private/x`; `%2570` is `%70`, as a server that decodes once reads it),
 * and that without `;` path parameters (`/private;a=b/x`, as Java servers read it). An exclude matches when it matches
 * any of them, ignoring case (ASCII, and other letters through lower- and upper-cased spellings): most servers'
 * paths are case-sensitive, but some (IIS, case-insensitive file systems) serve `/PRIVATE/x` as `/private/x`, and an
 * exclude that keeps a credential or a crawl away must err on the safe side. An include matches when it matches any
 * spelling in its own case (a regular expression with the `i` flag ignores case): includes select pages, and `/Blog/`
 * is another page than `/blog/` on most servers. `compileScopePatterns` is the one matcher: the crawl's scope and
 * where a crawl login may be sent (`crawl-login-binding.ts`) both use it.
 */
export interface CompiledCrawlScope {
  readonly includeSubdomains: boolean;
  /** List mode: the listed URLs (`urls`, normalized, in the order given) or the sitemap's (`sitemap`). */
  readonly list: { source: 'urls'; urls: readonly string[] } | { source: 'sitemap' } | null;
  /** The URL as the crawl keys it (fragment and dropped parameters removed); null when it is not http(s). */
  normalize(url: string): string | null;
  /** `url`, normalized in place (fragment and dropped parameters removed); returns its href. */
  normalizeParsed(url: URL): string;
  /** The site's host (www-insensitive) over http(s), or one of its subdomains when includeSubdomains. */
  inSite(url: URL): boolean;
  /** The include and exclude patterns let the URL's path and query through. */
  matches(url: URL): boolean;
  /** No exclude pattern matches the URL (resources of the site obey the excludes only: includes select pages). */
  notExcluded(url: URL): boolean;
  /** inSite and matches: a page the crawl may fetch. */
  inScope(url: URL): boolean;
}

/** A pattern that cannot be used: the message says why (for the settings form and the CLI). */
export class ScopePatternError extends Error {
  constructor(
    readonly pattern: string,
    message: string,
  ) {
    super(message);
    this.name = 'ScopePatternError';
  }
}

export const SCOPE_PATTERN_MAX_LENGTH = 300;
export const SCOPE_PATTERNS_MAX = 50;
/** Program size of one compiled pattern (counted repetitions expand): bounds the matcher's work per character. */
const MAX_PROGRAM = 4_000;

/** A compiled pattern: `test` answers for a URL's path and query (`ignoreCase`: ASCII letters in either case). */
export interface ScopeMatcher {
  readonly pattern: string;
  readonly kind: 'glob' | 'regex';
  test(target: string, ignoreCase?: boolean): boolean;
}

/** Include and exclude patterns compiled together: the one matcher of a URL against them. */
export interface ScopePatterns {
  /** No include patterns, or one matches a spelling of the URL's path and query (in its case). */
  included(url: URL): boolean;
  /** An exclude pattern matches a spelling of the URL's path and query, ignoring case. */
  excluded(url: URL): boolean;
  /** included and not excluded (the spellings computed once). */
  matches(url: URL): boolean;
}

/**
 * Compiles include and exclude patterns. An unusable pattern throws a ScopePatternError, unless `unusableExclude` is
 * `'excludes-everything'` (a sealed binding read back: a pattern that no longer compiles excludes all, never nothing).
 */
export function compileScopePatterns(
  include: readonly string[],
  exclude: readonly string[],
  options: { unusableExclude?: 'throw' | 'excludes-everything' } = {},
): ScopePatterns {
  const includes = include.map(compileScopePattern);
  const excludes = exclude.map((p): Pick<ScopeMatcher, 'test'> => {
    try {
      return compileScopePattern(p);
    } catch (err) {
      if (options.unusableExclude === 'excludes-everything') return { test: () => true };
      throw err;
    }
  });
  const isIncluded = (targets: readonly string[]) =>
    !includes.length || includes.some((m) => targets.some((t) => m.test(t)));
  const isExcluded = (targets: readonly string[]) => {
    if (!excludes.length) return false;
    const folded = withCaseSpellings(targets);
    return excludes.some((m) => folded.some((t) => m.test(t, true)));
  };
  return {
    included: (url) => isIncluded(scopeTargets(url)),
    excluded: (url) => isExcluded(scopeTargets(url)),
    matches: (url) => {
      if (!includes.length && !excludes.length) return true;
      const targets = scopeTargets(url);
      return isIncluded(targets) && !isExcluded(targets);
    },
  };
}

/**
 * The spellings of a URL's path and query that patterns are matched against, distinct, the URL's own first: as
 * parsed; percent-decoded once, `\` as `/`, dot segments resolved; and that without `;` path parameters.
 */
export function scopeTargets(url: URL): string[] {
  const raw = url.pathname + url.search;
  if (!/[%\\;]/.test(raw)) return [raw];
  const path = removeDotSegments(decodeOnce(url.pathname).replace(/\\/g, '/'));
  const search = decodeOnce(url.search);
  const targets = [raw];
  const add = (t: string) => {
    if (!targets.includes(t)) targets.push(t);
  };
  add(path + search);
  if (path.includes(';')) add(removeDotSegments(path.replace(/;[^/]*/g, '')) + search);
  return targets;
}

/** The targets with lower- and upper-cased spellings added when they hold non-ASCII letters (matching folds ASCII). */
function withCaseSpellings(targets: readonly string[]): readonly string[] {
  if (!targets.some((t) => /[^ -~]/.test(t))) return targets;
  const all = [...targets];
  for (const t of targets)
    for (const spelling of [t.toLowerCase(), t.toUpperCase()]) if (!all.includes(spelling)) all.push(spelling);
  return all;
}

/** Percent-decoded once: UTF-8 runs as their characters; a run that is not UTF-8 has only its ASCII bytes decoded. */
function decodeOnce(s: string): string {
  if (!s.includes('%')) return s;
  return s.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-7][0-9a-fA-F])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
}

/** RFC 3986's remove_dot_segments on a path (`/a/./b/../c` is `/a/c`; never above the root). */
function removeDotSegments(path: string): string {
  if (!/(^|\/)\.\.?(\/|$)/.test(path)) return path;
  const out: string[] = [];
  const segments = path.split('/');
  for (let k = 0; k < segments.length; k++) {
    const segment = segments[k];
    const last = k === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && out.length > 1) out.pop();
      if (last) out.push('');
    } else out.push(segment);
  }
  return out.join('/');
}

/** Why a pattern cannot be used, or null when it can. */
export function scopePatternError(pattern: string): string | null {
  try {
    compileScopePattern(pattern);
    return null;
  } catch (err) {
    if (err instanceof ScopePatternError) return err.message;
    throw err;
  }
}

/** Compiles one include or exclude pattern; throws a ScopePatternError with a readable reason. */
export function compileScopePattern(pattern: string): ScopeMatcher {
  if (typeof pattern !== 'string' || !pattern.trim()) throw new ScopePatternError(String(pattern), 'is empty');
  if (pattern.length > SCOPE_PATTERN_MAX_LENGTH)
    throw new ScopePatternError(pattern, `is longer than ${SCOPE_PATTERN_MAX_LENGTH} characters`);
  if (/[\r\n]/.test(pattern)) throw new ScopePatternError(pattern, 'must be on one line');
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (regex && isRegexBody(regex[1])) return compileRegex(pattern, regex[1], regex[2]);
  return compileGlob(pattern);
}

/**
 * The body of a `/…/flags` pattern is a regular expression when it could be one in JavaScript source: not empty, and
 * no unescaped `/` outside a character class. So `/blog/` is the expression `blog`, while `/blog/a/` (a slash inside)
 * is a glob.
 */
function isRegexBody(body: string): boolean {
  if (!body) return false;
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return false;
  }
  return true;
}

/** Compiles a CrawlScope for a crawl of `startUrl`; throws a ScopePatternError on an unusable pattern. */
export function compileCrawlScope(startUrl: string, scope: CrawlScope = {}): CompiledCrawlScope {
  const start = new URL(startUrl);
  const site = siteKey(start.host);
  const siteHost = siteKey(start.hostname);
  const sitePort = start.port;
  const includeSubdomains = scope.includeSubdomains === true && isDomainName(siteHost);
  const patterns = compileScopePatterns(scope.include ?? [], scope.exclude ?? []);
  const mode: QueryParameterMode = scope.queryParameters ?? 'keep';
  const dropped = new Set(scope.droppedParameters ?? []);

  const normalizeParsed = (url: URL): string => {
    url.hash = '';
    if (url.search) {
      if (mode === 'drop-all') url.search = '';
      else if (mode === 'drop-listed' && dropped.size) {
        const search = withoutParameters(url.search, dropped);
        if (search !== url.search) url.search = search;
      }
    }
    return url.href;
  };
  const inSite = (url: URL): boolean => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (siteKey(url.host) === site) return true;
    return includeSubdomains && url.port === sitePort && url.hostname.toLowerCase().endsWith(`.${siteHost}`);
  };
  const notExcluded = (url: URL): boolean => !patterns.excluded(url);
  const matches = (url: URL): boolean => patterns.matches(url);
  const normalize = (raw: string): string | null => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return normalizeParsed(url);
  };
  let list: CompiledCrawlScope['list'] = null;
  if (scope.list?.source === 'sitemap') list = { source: 'sitemap' };
  else if (scope.list?.source === 'urls') {
    const urls: string[] = [];
    for (const raw of scope.list.urls) {
      const url = normalize(raw);
      if (url !== null && !urls.includes(url)) urls.push(url);
    }
    list = { source: 'urls', urls };
  }
  return {
    includeSubdomains,
    list,
    normalize,
    normalizeParsed,
    inSite,
    matches,
    notExcluded,
    inScope: (url) => inSite(url) && matches(url),
  };
}

/** A host name with a dot that is not an IP address: only such a site has subdomains. */
function isDomainName(hostname: string): boolean {
  return hostname.includes('.') && !hostname.startsWith('[') && !/^\d+(\.\d+){3}$/.test(hostname);
}

/** The query without the listed parameters (names compared decoded); the others keep their order and spelling. */
export function withoutParameters(search: string, names: ReadonlySet<string>): string {
  const parts = search.slice(1).split('&');
  const kept = parts.filter((part) => {
    const eq = part.indexOf('=');
    const raw = eq < 0 ? part : part.slice(0, eq);
    return !names.has(decodeName(raw));
  });
  if (kept.length === parts.length) return search;
  const rest = kept.filter((part) => part !== '');
  return rest.length ? `?${rest.join('&')}` : '';
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** A query parameter name a project may list for dropping: 1-100 characters, none of `&`, `=`, `#`, space. */
export function isParameterName(name: unknown): name is string {
  return typeof name === 'string' && name.length >= 1 && name.length <= 100 && !/[&=#\s]/.test(name);
}

// ---- globs ----

function compileGlob(pattern: string): ScopeMatcher {
  const wildcard = /[*?]/;
  // Fast paths: a literal path, and a literal prefix followed by `**`.
  if (!wildcard.test(pattern)) {
    const folded = asciiLower(pattern);
    return { pattern, kind: 'glob', test: (t, ignoreCase) => (ignoreCase ? asciiLower(t) === folded : t === pattern) };
  }
  if (pattern.endsWith('**') && !wildcard.test(pattern.slice(0, -2))) {
    const prefix = pattern.slice(0, -2);
    const folded = asciiLower(prefix);
    return {
      pattern,
      kind: 'glob',
      test: (t, ignoreCase) => (ignoreCase ? asciiLower(t.slice(0, prefix.length)) === folded : t.startsWith(prefix)),
    };
  }
  const items: Node[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      while (pattern[i + 1] === '*') i++;
      items.push({ t: 'rep', node: { t: 'set', set: ANY_SET }, min: 0, max: Infinity });
    } else if (c === '*') items.push({ t: 'rep', node: { t: 'set', set: NOT_SLASH }, min: 0, max: Infinity });
    else if (c === '?') items.push({ t: 'set', set: NOT_SLASH });
    else items.push({ t: 'set', set: charSet(c.charCodeAt(0)) });
  }
  const program = compileProgram({ t: 'seq', items }, pattern);
  return { pattern, kind: 'glob', test: (t, ignoreCase = false) => runProgram(program, t, true, ignoreCase) };
}

/** ASCII letters lower-cased, every other character kept (the matcher's own case folding). */
const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (run) => run.toLowerCase());

// ---- regular expressions: a parser of JavaScript's syntax (a linear-time subset) and a Pike VM ----

/** A set of UTF-16 code units: sorted inclusive ranges, possibly negated. */
interface CharSet {
  ranges: number[]; // [lo0, hi0, lo1, hi1, ...]
  negated: boolean;
}

type Node =
  | { t: 'set'; set: CharSet }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number }
  | { t: 'assert'; kind: '^' | '$' | 'b' | 'B' };

const ANY_SET: CharSet = { ranges: [0, 0xffff], negated: false };
const NOT_SLASH: CharSet = { ranges: [0x2f, 0x2f], negated: true };
const DIGIT = [0x30, 0x39];
const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const SPACE = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
];
const LINE_TERMINATORS = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

const charSet = (code: number): CharSet => ({ ranges: [code, code], negated: false });

function compileRegex(pattern: string, source: string, flags: string): ScopeMatcher {
  const bad = (message: string) => new ScopePatternError(pattern, message);
  if (!/^[imsu]*$/.test(flags) || new Set(flags).size !== flags.length)
    throw bad('may only use the flags i, m, s and u (each once)');
  try {
    new RegExp(source, flags);
  } catch (err) {
    throw bad(`is not a valid regular expression (${(err as Error).message})`);
  }
  const parser = new RegexParser(source, flags, bad);
  const ast = parser.parse();
  const program = compileProgram(ast, pattern, flags.includes('m'));
  const ignoreCase = flags.includes('i');
  return {
    pattern,
    kind: 'regex',
    test: (t, foldCase = false) => runProgram(program, t, false, ignoreCase || foldCase),
  };
}

class RegexParser {
  private i = 0;
  private readonly dotAll: boolean;
  private readonly unicode: boolean;

  constructor(
    private readonly src: string,
    flags: string,
    private readonly bad: (message: string) => ScopePatternError,
  ) {
    this.dotAll = flags.includes('s');
    this.unicode = flags.includes('u');
  }

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw this.bad(`has an unexpected "${this.src[this.i]}"`);
    return node;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { t: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      let atom = this.atom();
      const q = this.quantifier();
      if (q) {
        if (atom.t === 'assert') throw this.bad('repeats an assertion');
        atom = { t: 'rep', node: atom, min: q.min, max: q.max };
      }
      items.push(atom);
    }
    return items.length === 1 ? items[0] : { t: 'seq', items };
  }

  private quantifier(): { min: number; max: number } | null {
    const c = this.src[this.i];
    let q: { min: number; max: number } | null = null;
    if (c === '*') q = { min: 0, max: Infinity };
    else if (c === '+') q = { min: 1, max: Infinity };
    else if (c === '?') q = { min: 0, max: 1 };
    if (q) this.i++;
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return null; // a literal `{` (JavaScript accepts it without the u flag)
      this.i += m[0].length;
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (min > 1000 || (Number.isFinite(max) && max > 1000)) throw this.bad('repeats more than 1000 times');
      q = { min, max };
    }
    if (q && this.src[this.i] === '?') this.i++; // lazy: the same language, and only whether it matches counts
    return q;
  }

  private atom(): Node {
    const c = this.src[this.i++];
    switch (c) {
      case '^':
        return { t: 'assert', kind: '^' };
      case '$':
        return { t: 'assert', kind: '$' };
      case '.':
        return { t: 'set', set: this.dotAll ? ANY_SET : { ranges: LINE_TERMINATORS, negated: true } };
      case '(': {
        if (this.src[this.i] === '?') {
          const rest = this.src.slice(this.i, this.i + 3);
          if (rest.startsWith('?:')) this.i += 2;
          else if (rest.startsWith('?<') && rest !== '?<=' && rest !== '?<!') {
            const end = this.src.indexOf('>', this.i);
            this.i = end + 1;
          } else throw this.bad('uses a lookahead or lookbehind assertion, which is not supported');
        }
        const inner = this.alternation();
        if (this.src[this.i] !== ')') throw this.bad('has an unclosed group');
        this.i++;
        return inner;
      }
      case '[':
        return { t: 'set', set: this.charClass() };
      case '\\': {
        const escaped = this.escape(false);
        return 't' in escaped ? escaped : { t: 'set', set: charSet(escaped.code) };
      }
      case '*':
      case '+':
      case '?':
        throw this.bad('has a quantifier with nothing to repeat');
      default:
        return { t: 'set', set: charSet(this.codeAt(c)) };
    }
  }

  /** The code unit (or, with the u flag, a whole astral character as its first unit: URLs never hold them). */
  private codeAt(c: string): number {
    return c.charCodeAt(0);
  }

  private charClass(): CharSet {
    const negated = this.src[this.i] === '^';
    if (negated) this.i++;
    const ranges: number[] = [];
    while (this.i < this.src.length && this.src[this.i] !== ']') {
      const lo = this.classAtom();
      const range = this.src[this.i] === '-' && this.i + 1 < this.src.length && this.src[this.i + 1] !== ']';
      if (range && !Array.isArray(lo)) {
        this.i++;
        const hi = this.classAtom();
        if (Array.isArray(hi)) ranges.push(lo, lo, 0x2d, 0x2d, ...hi);
        else if (hi < lo) throw this.bad('has a character range out of order');
        else ranges.push(lo, hi);
      } else if (Array.isArray(lo)) ranges.push(...lo);
      else ranges.push(lo, lo);
    }
    if (this.src[this.i] !== ']') throw this.bad('has an unclosed character class');
    this.i++;
    return { ranges, negated };
  }

  /** One character of a class (a code unit), or a class escape's ranges (`\d`, `\w`, `\s`). */
  private classAtom(): number | number[] {
    const c = this.src[this.i++];
    if (c !== '\\') return this.codeAt(c);
    const escaped = this.escape(true);
    if ('t' in escaped) {
      if (escaped.t !== 'set') throw this.bad('has an assertion inside a character class');
      const set = escaped.set;
      if (set.negated) throw this.bad('uses \\D, \\W or \\S inside a character class, which is not supported');
      return set.ranges;
    }
    return escaped.code;
  }

  private escape(inClass: boolean): Node | { code: number } {
    const c = this.src[this.i++];
    if (c === undefined) throw this.bad('ends with a lone backslash');
    const set = (ranges: number[], negated = false): Node => ({ t: 'set', set: { ranges, negated } });
    switch (c) {
      case 'd':
        return set(DIGIT);
      case 'D':
        return set(DIGIT, true);
      case 'w':
        return set(WORD);
      case 'W':
        return set(WORD, true);
      case 's':
        return set(SPACE);
      case 'S':
        return set(SPACE, true);
      case 'b':
        return inClass ? { code: 8 } : { t: 'assert', kind: 'b' };
      case 'B':
        if (inClass) throw this.bad('uses \\B inside a character class');
        return { t: 'assert', kind: 'B' };
      case 't':
        return { code: 9 };
      case 'n':
        return { code: 10 };
      case 'v':
        return { code: 11 };
      case 'f':
        return { code: 12 };
      case 'r':
        return { code: 13 };
      case '0':
        if (!/[0-9]/.test(this.src[this.i] ?? '')) return { code: 0 };
        throw this.bad('uses an octal escape, which is not supported');
      case 'x': {
        const m = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.i));
        if (!m) return { code: 0x78 };
        this.i += 2;
        return { code: parseInt(m[0], 16) };
      }
      case 'u': {
        const braced = this.unicode ? /^\{([0-9a-fA-F]{1,6})\}/.exec(this.src.slice(this.i)) : null;
        if (braced) {
          this.i += braced[0].length;
          const code = parseInt(braced[1], 16);
          if (code > 0xffff) throw this.bad('names a character beyond U+FFFF, which a URL never holds');
          return { code };
        }
        const m = /^[0-9a-fA-F]{4}/.exec(this.src.slice(this.i));
        if (!m) return { code: 0x75 };
        this.i += 4;
        return { code: parseInt(m[0], 16) };
      }
      case 'k':
        if (this.src[this.i] === '<') throw this.bad('uses a back-reference, which is not supported');
        return { code: 0x6b };
      case 'p':
      case 'P':
        if (this.unicode) throw this.bad('uses a Unicode property escape, which is not supported');
        return { code: c.charCodeAt(0) };
      case 'c':
        throw this.bad('uses a control-character escape (\\c), which is not supported');
      default:
        if (/[1-9]/.test(c)) throw this.bad('uses a back-reference, which is not supported');
        return { code: c.charCodeAt(0) };
    }
  }
}

// ---- the program: Thompson's construction, run as a Pike VM (a set of states per position: linear time) ----

const OP_SET = 0;
const OP_SPLIT = 1;
const OP_JMP = 2;
const OP_ASSERT = 3;
const OP_MATCH = 4;

interface Inst {
  op: number;
  set?: CharSet;
  x?: number;
  y?: number;
  kind?: '^' | '$' | 'b' | 'B';
}

interface Program {
  insts: Inst[];
  multiline: boolean;
  /** Work buffers, reused by every run (a run is synchronous): the thread lists, their marks, the stack. */
  buffers?: { current: Int32Array; next: Int32Array; mark: Int32Array; stack: Int32Array; generation: number };
}

function compileProgram(ast: Node, pattern: string, multiline = false): Program {
  const insts: Inst[] = [];
  const emit = (inst: Inst): number => {
    if (insts.length >= MAX_PROGRAM) throw new ScopePatternError(pattern, 'is too complex (too many repetitions)');
    insts.push(inst);
    return insts.length - 1;
  };
  const gen = (node: Node): void => {
    switch (node.t) {
      case 'set':
        emit({ op: OP_SET, set: node.set });
        return;
      case 'assert':
        emit({ op: OP_ASSERT, kind: node.kind });
        return;
      case 'seq':
        for (const item of node.items) gen(item);
        return;
      case 'alt': {
        const jumps: number[] = [];
        node.options.forEach((option, index) => {
          if (index < node.options.length - 1) {
            const split = emit({ op: OP_SPLIT });
            insts[split].x = insts.length;
            gen(option);
            jumps.push(emit({ op: OP_JMP }));
            insts[split].y = insts.length;
          } else gen(option);
        });
        for (const j of jumps) insts[j].x = insts.length;
        return;
      }
      case 'rep': {
        for (let k = 0; k < node.min; k++) gen(node.node);
        if (node.max === Infinity) {
          const split = emit({ op: OP_SPLIT });
          insts[split].x = insts.length;
          gen(node.node);
          emit({ op: OP_JMP, x: split });
          insts[split].y = insts.length;
        } else {
          const splits: number[] = [];
          for (let k = node.min; k < node.max; k++) {
            const split = emit({ op: OP_SPLIT });
            insts[split].x = insts.length;
            splits.push(split);
            gen(node.node);
          }
          for (const s of splits) insts[s].y = insts.length;
        }
        return;
      }
    }
  };
  gen(ast);
  emit({ op: OP_MATCH });
  return { insts, multiline };
}

function contains(set: CharSet, code: number): boolean {
  const r = set.ranges;
  for (let k = 0; k < r.length; k += 2) if (code >= r[k] && code <= r[k + 1]) return true;
  return false;
}

/** Whether the set matches `code`; with the i flag (`other`: the other case, or -1) either case counts. */
function inSet(set: CharSet, code: number, other = -1): boolean {
  const found = contains(set, code) || (other >= 0 && contains(set, other));
  return found !== set.negated;
}

const isWord = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || (code >= 0x61 && code <= 0x7a);
const isLineTerminator = (code: number): boolean =>
  code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;

/**
 * Whether the program matches `input` (anchored: the whole input; otherwise anywhere in it). Each position holds at
 * most one thread per instruction, so the work is O(input length × program size) whatever the pattern.
 */
function runProgram(program: Program, input: string, anchored: boolean, ignoreCase: boolean): boolean {
  const { insts, multiline } = program;
  const size = insts.length;
  const n = input.length;
  let buffers = program.buffers;
  if (!buffers || buffers.generation > 1 << 29) {
    buffers = {
      current: new Int32Array(size),
      next: new Int32Array(size),
      mark: new Int32Array(size).fill(-1),
      stack: new Int32Array(size * 2 + 2),
      generation: 0,
    };
    program.buffers = buffers;
  }
  let { current, next } = buffers;
  const { mark, stack } = buffers;
  // Generation marks: an instruction is on a list once per position (numbers never reused across runs).
  const base = buffers.generation;
  buffers.generation += n + 2;
  let currentCount: number;
  let nextCount: number;

  const assertHolds = (kind: string, pos: number): boolean => {
    const before = pos > 0 ? input.charCodeAt(pos - 1) : -1;
    const after = pos < n ? input.charCodeAt(pos) : -1;
    switch (kind) {
      case '^':
        return pos === 0 || (multiline && isLineTerminator(before));
      case '$':
        return pos === n || (multiline && isLineTerminator(after));
      case 'b':
        return (before >= 0 && isWord(before)) !== (after >= 0 && isWord(after));
      default:
        return (before >= 0 && isWord(before)) === (after >= 0 && isWord(after));
    }
  };

  /** Adds the thread at `pc` and everything it reaches without reading a character; true on a match. */
  const add = (list: Int32Array, count: number, pc: number, pos: number, generation: number): [number, boolean] => {
    let top = 0;
    stack[top++] = pc;
    let matched = false;
    while (top > 0) {
      const at = stack[--top];
      if (mark[at] === generation) continue;
      mark[at] = generation;
      const inst = insts[at];
      switch (inst.op) {
        case OP_SET:
          list[count++] = at;
          break;
        case OP_MATCH:
          if (!anchored || pos === n) matched = true;
          break;
        case OP_JMP:
          stack[top++] = inst.x!;
          break;
        case OP_SPLIT:
          // y pushed first so that x is explored first (order does not change the answer).
          stack[top++] = inst.y!;
          stack[top++] = inst.x!;
          break;
        case OP_ASSERT:
          if (assertHolds(inst.kind!, pos)) stack[top++] = at + 1;
          break;
      }
    }
    return [count, matched];
  };

  let matched: boolean;
  [currentCount, matched] = add(current, 0, 0, 0, base);
  if (matched) return true;
  for (let pos = 0; pos < n; pos++) {
    const code = input.charCodeAt(pos);
    const generation = base + pos + 1;
    nextCount = 0;
    let other = -1;
    if (ignoreCase) {
      if (code >= 0x41 && code <= 0x5a) other = code + 32;
      else if (code >= 0x61 && code <= 0x7a) other = code - 32;
    }
    for (let k = 0; k < currentCount; k++) {
      const at = current[k];
      const set = insts[at].set!;
      if (inSet(set, code, other)) {
        [nextCount, matched] = add(next, nextCount, at + 1, pos + 1, generation);
        if (matched) return true;
      }
    }
    if (!anchored) {
      [nextCount, matched] = add(next, nextCount, 0, pos + 1, generation);
      if (matched) return true;
    }
    if (nextCount === 0 && anchored) return false;
    [current, next] = [next, current];
    currentCount = nextCount;
  }
  return false;
}
