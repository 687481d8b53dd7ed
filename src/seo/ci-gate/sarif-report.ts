import { findCheck, guidanceFor, type Severity } from '../checks/index.js';
import { byGateOrder, type GateOccurrence, type OccurrenceComparison } from './baseline-comparison.js';

/**
 * SARIF 2.1.0 (OASIS) for code-scanning dashboards: one rule per check code, one result per (code, URL) occurrence
 * with the URL as its location. With a baseline each result says whether it is new or unchanged, and the fixed
 * occurrences are results too, `absent` and of kind `pass` (a check that no longer fails there), so that a dashboard
 * that reads baselineState can close them.
 */

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

type SarifLevel = 'error' | 'warning' | 'note' | 'none';
const LEVELS: Record<Severity, SarifLevel> = { CRITICAL: 'error', WARNING: 'warning', NOTICE: 'note' };

/**
 * How a URL is written as the result's location:
 * - `absolute`: the URL itself (the SARIF way; viewers open it);
 * - `relative`: `host/path?query`, a relative reference with no scheme, for GitHub code scanning, which rejects a
 *   whole upload whose locations have a scheme other than its checkout's (`file`). The URL stays in the message.
 */
export type SarifUriStyle = 'absolute' | 'relative';

export interface SarifInput {
  tool: { name: string; version: string; informationUri: string };
  /** This run's occurrences (without a baseline: every result). */
  occurrences: readonly GateOccurrence[];
  /** With a baseline: results are its new and unchanged occurrences, and its fixed ones as `absent`. */
  comparison: OccurrenceComparison | null;
  uris: SarifUriStyle;
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: [SarifRun];
}

interface SarifRun {
  tool: { driver: SarifDriver };
  results: SarifResult[];
}

interface SarifDriver {
  name: string;
  version: string;
  informationUri: string;
  rules: SarifRule[];
}

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  defaultConfiguration: { level: SarifLevel };
  properties: { category: string; tags: string[] };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  kind?: 'pass';
  level: SarifLevel;
  message: { text: string };
  locations: [{ physicalLocation: { artifactLocation: { uri: string } } }];
  partialFingerprints: Record<string, string>;
  baselineState?: 'new' | 'unchanged' | 'absent';
  properties: { url: string; severity: Severity; category: string; evidence?: unknown };
}

/** META_TITLE_MISSING -> MetaTitleMissing: SARIF wants a rule's name to be an identifier a person can read. */
const ruleName = (code: string) =>
  code
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

function ruleOf(sample: GateOccurrence): SarifRule {
  const check = findCheck(sample.code);
  const guidance = guidanceFor(sample.code);
  const title = check?.title ?? sample.title;
  const description = check?.description ?? sample.title;
  const category = check?.category ?? sample.category;
  const help = guidance
    ? {
        text: `${guidance.why}\n\nHow to fix: ${guidance.fix}`,
        markdown: `${guidance.why}\n\n**How to fix:** ${guidance.fix}`,
      }
    : { text: description, markdown: description };
  return {
    id: sample.code,
    name: ruleName(sample.code) || sample.code,
    shortDescription: { text: title },
    fullDescription: { text: description },
    help,
    defaultConfiguration: { level: LEVELS[check?.severity ?? sample.severity] },
    properties: { category, tags: ['seo', category.toLowerCase()] },
  };
}

const encodeChar = (c: string) => {
  try {
    return encodeURIComponent(c);
  } catch {
    return '%EF%BF%BD'; // a lone surrogate: U+FFFD, as a URL parser would have it
  }
};

/**
 * A URL as an RFC 3986 URI reference, which SARIF locations must be: a character it does not admit (`<`, `|`, a
 * space, a second `#`, a `%` that starts no escape…) percent-encoded, the rest as given. Crawled URLs are already so.
 */
export function uriReference(url: string): string {
  const hash = url.indexOf('#');
  const [head, fragment] = hash < 0 ? [url, null] : [url.slice(0, hash), url.slice(hash + 1).replace(/#/g, '%23')];
  const encode = (part: string) =>
    part.replace(/%(?![0-9A-Fa-f]{2})/g, '%25').replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/gu, encodeChar);
  return fragment === null ? encode(head) : `${encode(head)}#${encode(fragment)}`;
}

/** `host/path?query` with the port's colon escaped: a first segment with a colon would read as a scheme. */
export function relativeUri(url: string): string {
  if (!URL.canParse(url)) return uriReference(url).replace(/:/g, '%3A');
  const u = new URL(url);
  return uriReference(`${u.host.replace(/:/g, '%3A')}${u.pathname}${u.search}`);
}

export function buildSarifLog(input: SarifInput): SarifLog {
  const c = input.comparison;
  const entries: { o: GateOccurrence; state?: 'new' | 'unchanged' | 'absent' }[] = c
    ? [
        ...c.new.map((o) => ({ o, state: 'new' as const })),
        ...c.unchanged.map((o) => ({ o, state: 'unchanged' as const })),
        ...c.fixed.map((o) => ({ o, state: 'absent' as const })),
      ]
    : [...input.occurrences].sort(byGateOrder).map((o) => ({ o }));

  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const indexOf = (o: GateOccurrence) => {
    let index = ruleIndex.get(o.code);
    if (index === undefined) {
      index = rules.push(ruleOf(o)) - 1;
      ruleIndex.set(o.code, index);
    }
    return index;
  };

  const results = entries.map(({ o, state }): SarifResult => {
    const fixed = state === 'absent';
    return {
      ruleId: o.code,
      ruleIndex: indexOf(o),
      // A result of another kind than `fail` has level `none` (SARIF §3.27.9): the check passes there now.
      ...(fixed ? { kind: 'pass' as const } : {}),
      level: fixed ? 'none' : LEVELS[o.severity],
      message: { text: fixed ? `Fixed since the baseline: ${o.title} on ${o.url}` : `${o.title} on ${o.url}` },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: input.uris === 'relative' ? relativeUri(o.url) : uriReference(o.url) },
          },
        },
      ],
      // The same (code, URL) is the same result in every run: dashboards track it across uploads by this.
      partialFingerprints: { 'seoOccurrence/v1': `${o.code} ${o.url}` },
      ...(state ? { baselineState: state } : {}),
      properties: {
        url: o.url,
        severity: o.severity,
        category: o.category,
        ...(o.evidence !== undefined && o.evidence !== null ? { evidence: o.evidence } : {}),
      },
    };
  });

  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { ...input.tool, rules } },
        results,
      },
    ],
  };
}
