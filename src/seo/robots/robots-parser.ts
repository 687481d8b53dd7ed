import { RobotsIssueList } from './robots-issues.js';
import { decodeRobotsText } from './robots-text-decoder.js';
import { groupAgentToken } from './robots-user-agent.js';
import { ROBOTS_MAX_BYTES, ROBOTS_MAX_ISSUES } from './robots.types.js';
import type { RobotsGroup, RobotsRuleType, RobotsTxt } from './robots.types.js';

type Directive = 'user-agent' | 'allow' | 'disallow' | 'sitemap';

const DIRECTIVES: ReadonlyMap<string, Directive> = new Map<string, Directive>([
  ['user-agent', 'user-agent'],
  ['allow', 'allow'],
  ['disallow', 'disallow'],
  ['sitemap', 'sitemap'],
]);

/** Misspellings Google's parser accepts (google/robotstxt): applied like Google, reported as errors. */
const ACCEPTED_TYPOS: ReadonlyMap<string, Directive> = new Map<string, Directive>([
  ['useragent', 'user-agent'],
  ['user agent', 'user-agent'],
  ['dissallow', 'disallow'],
  ['dissalow', 'disallow'],
  ['disalow', 'disallow'],
  ['diasllow', 'disallow'],
  ['disallaw', 'disallow'],
  ['site-map', 'sitemap'],
]);

/** Well-known directives outside RFC 9309: legal to write, but Google ignores them. */
const NON_STANDARD: ReadonlyMap<string, string> = new Map([
  ['crawl-delay', "'crawl-delay' is not part of RFC 9309: Google ignores it (Bing and Yandex honour it)"],
  ['host', "'host' is a Yandex-only directive that Yandex has retired; Google ignores it"],
  ['clean-param', "'clean-param' is Yandex-only; Google ignores it"],
  [
    'noindex',
    "Google stopped supporting 'noindex' in robots.txt in 2019: use a meta robots tag or an X-Robots-Tag header",
  ],
  ['nofollow', '\'nofollow\' is not a robots.txt directive: use a meta robots tag or rel="nofollow" links'],
  ['request-rate', "'request-rate' is not part of RFC 9309; Google ignores it"],
  ['visit-time', "'visit-time' is not part of RFC 9309; Google ignores it"],
  ['content-signal', "'content-signal' is not part of RFC 9309; crawlers that do not know it ignore it"],
]);

const SUGGESTIONS = ['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay'];

const ABSOLUTE_HTTP_URL = /^https?:\/\/[^\s/?#]+/i;

/** Edit distance with an early exit: only distances up to 2 matter for suggestions. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    previous = current;
  }
  return previous[b.length];
}

function suggestionFor(key: string): string | null {
  if (key.length > 20) return null;
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of SUGGESTIONS) {
    const distance = editDistance(key, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function lineOfIndex(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) line++;
  }
  return line;
}

function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return code >= 0xa0 && /\s/.test(String.fromCharCode(code));
}

/** `text.slice(start, end).trim()` without the intermediate copy. */
function trimmedSlice(text: string, start: number, end: number): string {
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return start === end ? '' : text.slice(start, end);
}

interface KeyValue {
  key: string;
  value: string;
  missingColon: boolean;
}

/**
 * Splits `key: value`. Like Google, a line without a colon is still read when it is exactly two
 * words (`Disallow /admin`), since that is almost always a forgotten colon.
 */
function splitRecord(record: string): KeyValue | null {
  const colon = record.indexOf(':');
  if (colon >= 0) {
    const key = record.slice(0, colon).trim();
    return key.length === 0 ? null : { key, value: record.slice(colon + 1).trim(), missingColon: false };
  }
  const words = record.split(/[ \t]+/);
  if (words.length !== 2) return null;
  return { key: words[0], value: words[1], missingColon: true };
}

/** What reading the records builds: the groups and sitemaps found so far, and the issues. */
interface ParseState {
  errors: RobotsIssueList;
  warnings: RobotsIssueList;
  groups: RobotsGroup[];
  groupStartLines: number[];
  sitemaps: string[];
  seenSitemaps: Set<string>;
  current: RobotsGroup | null;
  // True while reading the user-agent lines that open a group; the first rule ends that list.
  readingAgents: boolean;
  htmlReported: boolean;
}

/**
 * Parses robots.txt per RFC 9309 (with Google's documented leniencies) and validates it.
 * Only the first ROBOTS_MAX_BYTES are parsed, as crawlers do.
 */
export function parseRobotsTxt(content: string | Uint8Array): RobotsTxt {
  const decoded = decodeRobotsText(content);
  const state: ParseState = {
    errors: new RobotsIssueList(ROBOTS_MAX_ISSUES),
    warnings: new RobotsIssueList(ROBOTS_MAX_ISSUES),
    groups: [],
    groupStartLines: [],
    sitemaps: [],
    seenSitemaps: new Set<string>(),
    current: null,
    readingAgents: false,
    htmlReported: false,
  };
  const { errors, warnings, groups } = state;
  for (const problem of decoded.problems) {
    errors.addAlways(lineOfIndex(decoded.text, problem.index), problem.message);
  }

  // Lines end at CR, LF or CRLF. Scanning by index (next break and next `#` found once each)
  // avoids copying every line of a 500 KiB file before most of them are thrown away.
  const text = decoded.text;
  const textLength = text.length;
  let lineNumber = 0;
  let nextLf = text.indexOf('\n');
  let nextCr = text.indexOf('\r');
  let nextHash = text.indexOf('#');
  for (let lineStart = 0; lineStart <= textLength;) {
    lineNumber++;
    if (nextLf >= 0 && nextLf < lineStart) nextLf = text.indexOf('\n', lineStart);
    if (nextCr >= 0 && nextCr < lineStart) nextCr = text.indexOf('\r', lineStart);
    if (nextHash >= 0 && nextHash < lineStart) nextHash = text.indexOf('#', lineStart);
    const lineEnd = nextLf < 0 ? (nextCr < 0 ? textLength : nextCr) : nextCr < 0 ? nextLf : Math.min(nextLf, nextCr);
    const start = lineStart;
    lineStart = lineEnd + (text.charCodeAt(lineEnd) === 0x0d && text.charCodeAt(lineEnd + 1) === 0x0a ? 2 : 1);

    const record = trimmedSlice(text, start, nextHash >= 0 && nextHash < lineEnd ? nextHash : lineEnd);
    if (record.length !== 0) readRecord(record, lineNumber, state);
  }
  reportGroupsWithoutRules(state);

  if (decoded.truncated) {
    errors.addAlways(
      lineNumber,
      `file is ${decoded.sizeBytes} bytes, over the ${ROBOTS_MAX_BYTES}-byte (500 KiB) limit: ` +
        'crawlers ignore everything from this line on',
    );
  }

  return {
    groups,
    sitemaps: state.sitemaps,
    errors: errors.finish('errors'),
    warnings: warnings.finish('warnings'),
    sizeBytes: decoded.sizeBytes,
    truncated: decoded.truncated,
  };
}

/** Reads one non-empty record: reports what is wrong with it and applies what a crawler would apply. */
function readRecord(record: string, lineNumber: number, state: ParseState): void {
  const { errors } = state;
  if (record.startsWith('<')) {
    errors.add(
      lineNumber,
      state.htmlReported
        ? `invalid line '${clip(record)}': expected 'directive: value'`
        : 'line looks like HTML: the server seems to return a web page instead of a robots.txt file',
    );
    state.htmlReported = true;
    return;
  }
  const parts = splitRecord(record);
  if (parts === null) {
    const lowerRecord = record.toLowerCase();
    const known = DIRECTIVES.has(lowerRecord) || ACCEPTED_TYPOS.has(lowerRecord);
    errors.add(
      lineNumber,
      known ? `missing ':' after '${record}'` : `invalid line '${clip(record)}': expected 'directive: value'`,
    );
    return;
  }

  const directive = directiveOf(parts, record, lineNumber, state);
  if (directive === undefined) return;
  if (parts.missingColon) {
    errors.add(lineNumber, `missing ':' after '${parts.key}': Google accepts it, other crawlers ignore the line`);
  }
  switch (directive) {
    case 'user-agent':
      readUserAgent(parts.value, lineNumber, state);
      break;
    case 'allow':
    case 'disallow':
      readRule(directive, parts.value, lineNumber, state);
      break;
    case 'sitemap':
      readSitemap(parts.value, lineNumber, state);
      break;
  }
}

/**
 * The directive a record's key names, a misspelling Google accepts included (reported as an error); undefined, with
 * the line reported, for a key that names none (a non-standard directive is a warning, an unknown one an error).
 */
function directiveOf(parts: KeyValue, record: string, lineNumber: number, state: ParseState): Directive | undefined {
  const { errors, warnings } = state;
  const lowerKey = parts.key.toLowerCase();
  const directive = DIRECTIVES.get(lowerKey);
  if (directive !== undefined) return directive;
  const typoOf = ACCEPTED_TYPOS.get(lowerKey);
  if (typoOf !== undefined) {
    errors.add(
      lineNumber,
      `'${parts.key}' is a misspelling of '${typoOf}': Google accepts it, other crawlers ignore the line`,
    );
    return typoOf;
  }
  const nonStandard = NON_STANDARD.get(lowerKey);
  if (parts.missingColon) {
    errors.add(
      lineNumber,
      nonStandard === undefined
        ? `invalid line '${clip(record)}': expected 'directive: value'`
        : `missing ':' after '${parts.key}'`,
    );
  } else if (nonStandard !== undefined) {
    warnings.add(lineNumber, nonStandard);
  } else {
    const suggestion = suggestionFor(lowerKey);
    errors.add(
      lineNumber,
      `unknown directive '${clip(parts.key)}'${suggestion === null ? '' : ` (did you mean '${suggestion}'?)`}`,
    );
  }
  return undefined;
}

/** A user-agent line opens a group, or adds its crawler to the group whose user-agent lines are being read. */
function readUserAgent(value: string, lineNumber: number, state: ParseState): void {
  const { errors, warnings } = state;
  let current = state.current;
  if (current === null || !state.readingAgents) {
    current = { userAgents: [], rules: [] };
    state.current = current;
    state.groups.push(current);
    state.groupStartLines.push(lineNumber);
    state.readingAgents = true;
  }
  if (value.length === 0) {
    errors.add(lineNumber, "empty 'user-agent' value: name a crawler's product token or '*'");
    return;
  }
  const { token, hasExtra } = groupAgentToken(value);
  if (token === '') {
    errors.add(lineNumber, `invalid user-agent '${clip(value)}': expected a product token (letters, '-', '_') or '*'`);
    return;
  }
  if (hasExtra) {
    warnings.add(
      lineNumber,
      `user-agent '${clip(value)}' is matched by its product token '${token}' only; the rest is ignored`,
    );
  }
  current.userAgents.push(value);
}

/** An allow or disallow rule belongs to the current group; the first one ends its list of user agents. */
function readRule(directive: 'allow' | 'disallow', value: string, lineNumber: number, state: ParseState): void {
  const { errors, warnings, current } = state;
  if (current === null) {
    errors.add(lineNumber, `'${directive}' rule before any 'user-agent' line: it applies to no crawler`);
    return;
  }
  state.readingAgents = false;
  if (!isValidRulePath(value)) {
    errors.add(lineNumber, invalidPathMessage(value));
    return;
  }
  if (value.length === 0 && directive === 'allow') {
    warnings.add(lineNumber, "'allow' with an empty path has no effect");
  }
  if (value.includes(' ') || value.includes('\t')) {
    warnings.add(
      lineNumber,
      `rule path '${clip(value)}' contains whitespace: it only matches URLs with an encoded space (%20)`,
    );
  }
  current.rules.push({ type: directive as RobotsRuleType, path: value, line: lineNumber });
}

/** A sitemap line is global (it neither opens nor ends a group); each absolute http(s) URL is kept once. */
function readSitemap(value: string, lineNumber: number, state: ParseState): void {
  if (value.length === 0) {
    state.warnings.add(lineNumber, "empty 'sitemap' value");
  } else if (!ABSOLUTE_HTTP_URL.test(value)) {
    state.warnings.add(lineNumber, `sitemap '${clip(value)}' is ignored: it must be an absolute http(s) URL`);
  } else if (!state.seenSitemaps.has(value)) {
    state.seenSitemaps.add(value);
    state.sitemaps.push(value);
  }
}

function reportGroupsWithoutRules({ groups, groupStartLines, warnings }: ParseState): void {
  for (let i = 0; i < groups.length; i++) {
    if (groups[i].rules.length === 0 && groups[i].userAgents.length > 0) {
      warnings.add(
        groupStartLines[i],
        `group for ${groups[i].userAgents.map((ua) => `'${clip(ua)}'`).join(', ')} has no rules: ` +
          "these crawlers may fetch everything and do not fall back to the '*' group",
      );
    }
  }
}

/** RFC 9309 path-pattern: starts with `/` or `*`; an empty value is a valid "match nothing". */
function isValidRulePath(value: string): boolean {
  return value.length === 0 || value.charCodeAt(0) === 0x2f || value.charCodeAt(0) === 0x2a;
}

function invalidPathMessage(value: string): string {
  const url = /^https?:\/\/[^/?#]*(.*)$/i.exec(value);
  if (url !== null) {
    return `rule path must start with '/' or '*': write the path only ('${clip(url[1] || '/')}'), not a full URL`;
  }
  return `rule path '${clip(value)}' must start with '/' or '*': crawlers never match it`;
}

/** Keeps echoed input short in messages. */
function clip(text: string): string {
  return text.length <= 100 ? text : `${text.slice(0, 100)}…`;
}
