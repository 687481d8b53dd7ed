import type { NewIssueFact } from './alert-facts.js';
import type { DigestProjectView } from './alert-mail.js';

/** A keyword's position at the start and at the end of the week (null: not ranking, or not checked then). */
export interface KeywordMover {
  keyword: string;
  before: number | null;
  after: number | null;
  checkedBefore: boolean;
  checkedAfter: boolean;
}

/** What the digest knows of one project's week. */
export interface DigestProjectFacts {
  name: string;
  url: string;
  /** Overall scores of the audits completed this week, oldest first. */
  weekScores: (number | null)[];
  /** The overall score of the latest audit before the week. */
  scoreBefore: number | null;
  /** New critical issues of this week's audits (each against the audit before it). */
  newCritical: NewIssueFact[];
  movers: KeywordMover[];
}

/** Keywords listed per direction. */
const MOVERS = 5;
/** A keyword outside the checked results sorts after every position. */
const OUTSIDE = 1_000;

const rank = (p: number | null) => p ?? OUTSIDE;
const position = (p: number | null) => (p === null ? 'not ranking' : `#${p}`);

function scoreLine(now: number | null, before: number | null, audits: number): string {
  if (!audits) return before === null ? 'No completed audit yet.' : `No audit this week (latest score ${before}).`;
  if (now === null) return 'The latest audit has no overall score.';
  if (before === null) return `Overall score ${now} (the first audit).`;
  const delta = now - before;
  if (delta === 0) return `Overall score ${now} (unchanged).`;
  return `Overall score ${now} (${delta > 0 ? 'up' : 'down'} ${Math.abs(delta)} from ${before}).`;
}

/**
 * One project's part of the weekly digest: the score trend, the week's new critical issues (once per code, most
 * pages first) and the keywords that moved most each way (checked at both ends of the week).
 */
export function digestProject(f: DigestProjectFacts): DigestProjectView {
  const scores = f.weekScores.filter((s): s is number => s !== null);
  const now = f.weekScores.length ? (f.weekScores.at(-1) ?? null) : null;
  const byCode = new Map<string, NewIssueFact>();
  for (const issue of f.newCritical) {
    const seen = byCode.get(issue.code);
    if (!seen || issue.urls > seen.urls) byCode.set(issue.code, issue);
  }
  const moved = f.movers
    .filter((m) => m.checkedBefore && m.checkedAfter && m.before !== m.after)
    .map((m) => ({ ...m, gain: rank(m.before) - rank(m.after) }));
  const line = (m: KeywordMover) => `“${m.keyword}” ${position(m.before)} → ${position(m.after)}`;
  return {
    name: f.name,
    url: f.url,
    scoreLine: scoreLine(now, f.scoreBefore, f.weekScores.length),
    weekScores: scores,
    criticalIssues: [...byCode.values()]
      .sort((a, b) => b.urls - a.urls || a.title.localeCompare(b.title))
      .map((i) => ({ title: i.title, urls: i.urls })),
    gainers: moved
      .filter((m) => m.gain > 0)
      .sort((a, b) => b.gain - a.gain || a.keyword.localeCompare(b.keyword))
      .slice(0, MOVERS)
      .map(line),
    losers: moved
      .filter((m) => m.gain < 0)
      .sort((a, b) => a.gain - b.gain || a.keyword.localeCompare(b.keyword))
      .slice(0, MOVERS)
      .map(line),
  };
}

/** "17–24 November 2026" for the week ending at `until` (exclusive). */
export function digestPeriod(from: Date, until: Date): string {
  const last = new Date(until.getTime() - 1);
  const day = (d: Date) => d.toLocaleDateString('en-GB', { day: 'numeric', timeZone: 'UTC' });
  const full = (d: Date) =>
    d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const sameMonth = from.getUTCMonth() === last.getUTCMonth() && from.getUTCFullYear() === last.getUTCFullYear();
  return sameMonth ? `${day(from)}–${full(last)}` : `${full(from)} – ${full(last)}`;
}
