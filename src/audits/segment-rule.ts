import { createHash } from 'node:crypto';
import type { UrlFilterInput } from './url-table.repository.js';

/*
 * A segment's rule as a URL-table filter: the one way a segment selects URLs, so that the table, its export and the
 * per-segment scores all read the same SQL (url-table.repository.ts).
 */

export type SegmentKind = 'REGEX' | 'PATH' | 'FILTER';

/** A project's segments at most (docs/segments.md). */
export const MAX_SEGMENTS_PER_PROJECT = 50;
/**
 * The conditions of a FILTER segment's rule at most, over all its groups (a URL-table filter takes 10 groups of 20:
 * a segment one group's worth). Where a rule runs as SQL (a running audit's segment names, its members written) it
 * is at most this many conditions, so 50 segments stay within the grid's statement size (docs/segments.md).
 */
export const MAX_SEGMENT_CONDITIONS = 20;

/** The conditions of a filter input over all its groups (what MAX_SEGMENT_CONDITIONS counts). */
export const conditionCount = (input: UrlFilterInput): number =>
  (Array.isArray(input.groups) ? input.groups : []).reduce(
    (n, g) => n + (Array.isArray(g?.conditions) ? g.conditions.length : 0),
    0,
  );
export const SEGMENT_KINDS: readonly SegmentKind[] = ['REGEX', 'PATH', 'FILTER'];

/** A stored rule: a pattern (REGEX: a regular expression on the URL; PATH: a path prefix) or a saved filter. */
export interface SegmentRule {
  kind: SegmentKind;
  pattern: string | null;
  filter: UrlFilterInput | null;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The regular expression of a path prefix: any scheme and host, then the prefix (case-sensitive, as paths are). */
export const pathPrefixRegex = (prefix: string): string => `^[a-z][a-z0-9+.-]*://[^/?#]+${escapeRegex(prefix)}`;

/** The rule as a URL-table filter input. */
export function segmentFilterInput(rule: SegmentRule): UrlFilterInput {
  if (rule.kind === 'FILTER') return rule.filter ?? { groups: [] };
  const value = rule.kind === 'PATH' ? pathPrefixRegex(rule.pattern ?? '/') : (rule.pattern ?? '');
  return {
    combinator: 'AND',
    groups: [{ combinator: 'AND', conditions: [{ field: 'url', operator: 'regex', value }] }],
  };
}

/** Part of a kept facts row's key: raise it when what segmentFacts counts changes, and kept rows are counted again. */
const FACTS_VERSION = 1;

const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('base64url');

/** The key a segment's facts are kept under in audit_segment_facts: its rule (editing the segment changes it). */
export const segmentRuleKey = (input: UrlFilterInput): string => digest([FACTS_VERSION, input]);

/** The key of the "won't fix" markings its facts left out (pairs of code and URL, in any order). */
export const segmentMarksKey = (marked: { codes: readonly string[]; urls: readonly string[] }): string =>
  digest(marked.codes.map((code, i) => `${code} ${marked.urls[i]}`).sort());
