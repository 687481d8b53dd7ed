import type { KeywordRowFragment } from '../../gql/graphql';
import type { KeywordSearch, KeywordSort } from './search-params';

/**
 * How a keyword moved between its two latest successful checks, as the API decides it (Keyword.change; the rule is
 * the service's): NEW only the first time it ever ranks, BACK when it ranked before, dropped out and came back.
 */
export type Change =
  | { kind: 'none' } // never checked successfully
  | { kind: 'moved'; delta: number } // found both times: positive = up (a better, smaller position)
  | { kind: 'new' } // found now, never found before
  | { kind: 'back' } // found now, not at the check before, but at an earlier one
  | { kind: 'dropped' } // found before, not found now
  | { kind: 'absent'; firstCheck: boolean }; // not found either time, or at its first (and only) check

export function changeOf(k: Pick<KeywordRowFragment, 'change' | 'previousChecked'>): Change {
  const { kind, delta } = k.change;
  switch (kind) {
    case 'MOVED':
      return { kind: 'moved', delta: delta ?? 0 };
    case 'NEW':
      return { kind: 'new' };
    case 'BACK':
      return { kind: 'back' };
    case 'DROPPED':
      return { kind: 'dropped' };
    case 'ABSENT':
      // Checked once and not found: there was no "time" before to speak of.
      return { kind: 'absent', firstCheck: !k.previousChecked };
    case 'NONE':
      return { kind: 'none' };
  }
}

/** The change in words, for screen readers and titles: "up 3", "down 2", "no change", "back in the results". */
export function changeText(c: Change): string {
  switch (c.kind) {
    case 'none':
      return 'not checked yet';
    case 'moved':
      return c.delta > 0 ? `up ${c.delta}` : c.delta < 0 ? `down ${-c.delta}` : 'no change';
    case 'new':
      return 'new in the results: ranking for the first time';
    case 'back':
      return 'back in the results: ranked before, dropped out, ranking again';
    case 'dropped':
      return 'dropped out of the results';
    case 'absent':
      return c.firstCheck ? 'not found at its first check' : 'not found either time';
  }
}

/** A sortable number for a change (bigger = better); null sorts last. */
function changeRank(c: Change): number | null {
  switch (c.kind) {
    case 'moved':
      return c.delta;
    case 'new':
      return 10_000;
    case 'back':
      return 9_999;
    case 'dropped':
      return -10_000;
    default:
      return null;
  }
}

export const targetText = (k: Pick<KeywordRowFragment, 'country' | 'device' | 'language'>): string =>
  `${k.country.toUpperCase()} · ${k.device} · ${k.language}`;

const time = (iso: string | null) => (iso ? Date.parse(iso) : null);

type Key = (k: KeywordRowFragment) => string | number | null;
const SORT_KEYS: Record<KeywordSort, Key> = {
  term: (k) => k.term.toLocaleLowerCase(),
  position: (k) => k.position,
  change: (k) => changeRank(changeOf(k)),
  best: (k) => k.bestPosition,
  url: (k) => k.url,
  target: (k) => targetText(k),
  checked: (k) => time(k.lastCheck?.checkedAt ?? null),
};
/** The direction a column sorts in first: best positions and biggest gains first, most recent check first. */
export const DEFAULT_DIR: Record<KeywordSort, 'asc' | 'desc'> = {
  term: 'asc',
  position: 'asc',
  change: 'desc',
  best: 'asc',
  url: 'asc',
  target: 'asc',
  checked: 'desc',
};

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The keywords the filters keep, in the chosen order; keywords without a value for the column come last. */
export function visibleKeywords(all: readonly KeywordRowFragment[], search: KeywordSearch): KeywordRowFragment[] {
  const q = search.q?.trim().toLocaleLowerCase();
  const kept = all.filter(
    (k) =>
      (!search.device || k.device === search.device) &&
      (!search.country || k.country === search.country) &&
      (!q || k.term.toLocaleLowerCase().includes(q) || (k.url?.toLocaleLowerCase().includes(q) ?? false)),
  );
  if (!search.sort) return kept;
  const key = SORT_KEYS[search.sort];
  const sign = (search.dir ?? DEFAULT_DIR[search.sort]) === 'asc' ? 1 : -1;
  const keyed = kept.map((k) => ({ k, v: key(k) }));
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === b.v ? 0 : a.v === null ? 1 : -1;
    const d =
      typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : collator.compare(String(a.v), String(b.v));
    return d * sign;
  });
  return keyed.map((x) => x.k);
}

/** Limits of the API's addKeywords (AddKeywordsInput), shown before sending. */
export const MAX_TERM_LENGTH = 200;
export const MAX_TERMS_PER_ADD = 100;

/** What will happen to one line of the bulk-add text. */
export interface LinePlan {
  line: number;
  term: string;
  key: string;
  status: 'new' | 'duplicate' | 'tracked' | 'too-long';
  /** For a duplicate: the line it repeats. */
  of?: number;
}

/** The API's normal form of a term (NFKC, single spaces, trimmed) and its case-insensitive key. */
export function normalizeTerm(raw: string): { term: string; key: string } | null {
  const term = raw.normalize('NFKC').replace(/\s+/g, ' ').trim();
  return term ? { term, key: term.toLocaleLowerCase('en') } : null;
}

/** Each non-empty line's fate: new, a repeat of an earlier line, already tracked for the target, or too long. */
export function planLines(text: string, trackedKeys: ReadonlySet<string>): LinePlan[] {
  const seen = new Map<string, number>();
  const out: LinePlan[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const parsed = normalizeTerm(raw);
    if (!parsed) return;
    const line = i + 1;
    if (parsed.term.length > MAX_TERM_LENGTH) out.push({ line, ...parsed, status: 'too-long' });
    else if (seen.has(parsed.key)) out.push({ line, ...parsed, status: 'duplicate', of: seen.get(parsed.key) });
    else {
      seen.set(parsed.key, line);
      out.push({ line, ...parsed, status: trackedKeys.has(parsed.key) ? 'tracked' : 'new' });
    }
  });
  return out;
}
