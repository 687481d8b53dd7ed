import type { EntityManager } from '@mikro-orm/postgresql';
import type { NativeDb } from '../platform/db/native-query.js';
import type { Principal } from '../platform/context.js';
import { CSV_BOM, csvRow } from '../platform/csv.js';
import { badInput, notFound } from '../platform/errors.js';
import { assertApiAccess } from '../identity/index.js';
import type { ProjectService } from '../projects/index.js';
import type { Audit, AuditService } from '../audits/index.js';
import { SEVERITY_ORDER, SegmentService, type SegmentResult } from '../audits/index.js';
import { checkSettingChanges, type CheckSettingChange } from '../seo/checks/index.js';
import { rescoreWithout, scoredBeforeWontFix, type AuditScores, type ScoreBreakdown } from '../seo/scoring/index.js';
import {
  ComparisonRepository,
  type AuditPair,
  type CodeChangeRow,
  type ExtractionChange,
  type ExtractionChangeRecord,
  type ExtractionChangeRow,
  type IssueChange,
  type IssueChangeRecord,
  type PageChange,
  type PageChangeRecord,
  type PageChangeTotals,
  type PageRegressionRecord,
  type PageSide,
  type UrlIssueChangeRow,
} from './comparison.repository.js';

export type {
  ExtractionChange,
  ExtractionChangeRecord,
  ExtractionChangeRow,
  IssueChange,
  PageChange,
  PageSide,
  CodeChangeRow,
  PageChangeRecord,
  UrlIssueChangeRow,
  CheckSettingChange,
};

/** Two completed audits of one project, the caller's to read: what every comparison field starts from. */
export interface Comparison {
  projectId: string;
  base: Audit;
  head: Audit;
  /**
   * How the check settings the head audit was scored with differ from the base's (empty: scored alike). When they
   * differ, the score deltas are withheld: the scores do not measure the same thing.
   */
  settingChanges: CheckSettingChange[];
  /** Whether either audit's stored scores leave out occurrences marked "won't fix" (the deltas then use comparable). */
  wontFixMarked: boolean;
  /**
   * Each audit's scores under the checks both ran (without those the other did not run), as scored before any
   * "won't fix" marking: the stored scores when the settings are the same and nothing is marked; null where they
   * cannot be recomputed exactly (a severity changed, a CRITICAL check switched off, a breakdown that does not give
   * the stored scores back).
   */
  comparable: { base: AuditScores | null; head: AuditScores | null };
  /**
   * The per-code counts read so far, by code filter: a document asks for them several times (totals, codes, each
   * list's totalCount), and each read is the comparison's costliest statement. Lives as long as the object (one
   * GraphQL request).
   */
  codeCounts?: Map<string, Promise<CodeChangeRow[]>>;
}

export const SCORE_CATEGORIES = ['OVERALL', 'META', 'CONTENT', 'LINKS', 'TECHNICAL', 'PERFORMANCE'] as const;
export type ScoreCategory = (typeof SCORE_CATEGORIES)[number];

export interface ScoreDelta {
  category: ScoreCategory;
  before: number | null;
  after: number | null;
  /** Each score again under the checks both audits ran; equal to before/after when they ran the same checks. */
  comparableBefore: number | null;
  comparableAfter: number | null;
  /**
   * comparableAfter − comparableBefore: the change of the site under the same checks, never a settings change. Null
   * when either is.
   */
  delta: number | null;
}

export interface ComparisonTotals extends PageChangeTotals {
  newIssues: number;
  fixedIssues: number;
  goneIssues: number;
  notCheckedIssues: number;
  newlyCheckedIssues: number;
  persistingIssues: number;
}

export interface Slice<T> {
  nodes: T[];
  totalCount: number;
  hasNextPage: boolean;
  endCursor: string | null;
}

export const MAX_COMPARISON_ROWS = 500;
export const MAX_COMPARISON_CSV_PIECE = 5_000;
export type ComparisonRows = 'ISSUES' | 'PAGES';
/** Every change, in the order the CSV lists them. */
export const ISSUE_CHANGES: readonly IssueChange[] = [
  'NEW',
  'FIXED',
  'GONE',
  'NOT_CHECKED',
  'NEWLY_CHECKED',
  'PERSISTING',
];
const CHANGES = ISSUE_CHANGES;
export const COMPARISON_CSV_COLUMNS: Record<ComparisonRows, string[]> = {
  ISSUES: ['change', 'code', 'title', 'severity', 'category', 'url'],
  PAGES: ['url', 'changes', 'statusBefore', 'statusAfter', 'indexableBefore', 'indexableAfter'],
};

/** One piece of a comparison CSV: the pieces, asked for in turn with `nextCursor`, concatenate to the file. */
export interface ComparisonCsvPiece {
  filename: string;
  content: string;
  rows: number;
  nextCursor: string | null;
}
const SCORE_OF: Record<ScoreCategory, (a: Audit) => number | null | undefined> = {
  OVERALL: (a) => a.overallScore,
  META: (a) => a.metaScore,
  CONTENT: (a) => a.contentScore,
  LINKS: (a) => a.linksScore,
  TECHNICAL: (a) => a.technicalScore,
  PERFORMANCE: (a) => a.performanceScore,
};
const COUNT_OF: Record<IssueChange, (r: CodeChangeRow) => number> = {
  NEW: (r) => r.newUrls,
  FIXED: (r) => r.fixedUrls,
  GONE: (r) => r.goneUrls,
  NOT_CHECKED: (r) => r.notCheckedUrls,
  NEWLY_CHECKED: (r) => r.newlyCheckedUrls,
  PERSISTING: (r) => r.persistingUrls,
};

const pairOf = (c: Comparison): AuditPair => ({ base: c.base.id, head: c.head.id });
const encodeCursor = (parts: readonly unknown[]): string => Buffer.from(JSON.stringify(parts)).toString('base64url');

/** The parts of a cursor this list made for this pair and filter; BAD_USER_INPUT for anything else. */
function decodeCursor(after: string, scope: readonly unknown[], length: number): unknown[] {
  let parts: unknown;
  try {
    parts = /^[A-Za-z0-9_-]+$/.test(after) ? JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) : null;
  } catch {
    parts = null;
  }
  if (!Array.isArray(parts) || parts.length !== scope.length + length)
    throw badInput('after is not a cursor of this list: pass pageInfo.endCursor of a previous page.', [
      { path: 'after', message: 'not a cursor of this list' },
    ]);
  if (scope.some((s, i) => parts[i] !== s))
    throw badInput('after belongs to another comparison or filter: start again without it.', [
      { path: 'after', message: 'cursor of another list' },
    ]);
  const rest = parts.slice(scope.length);
  if (rest.some((p) => typeof p !== 'string')) throw badInput('after is not a cursor of this list.');
  return rest;
}

function assertFirst(first: number): void {
  if (!Number.isInteger(first) || first < 1 || first > MAX_COMPARISON_ROWS)
    throw badInput(`first must be between 1 and ${MAX_COMPARISON_ROWS}.`, [
      { path: 'first', message: `must be 1-${MAX_COMPARISON_ROWS}` },
    ]);
}

/**
 * What changed between two completed audits of a project: issues new, fixed and persisting (per check code and per
 * URL), score deltas, and crawled URLs added, removed, or changed in status or indexability. The sets are computed
 * by PostgreSQL (comparison.repository.ts); this service picks the audits, checks access and shapes the answers.
 */
/** One segment in both audits, and what changed: head minus base. */
export interface SegmentComparison {
  base: SegmentResult;
  head: SegmentResult;
  urlsDelta: number;
  overallDelta: number;
  /** Health points, one decimal. */
  healthDelta: number;
  criticalDelta: number;
  warningDelta: number;
  noticeDelta: number;
}

export class ComparisonService {
  constructor(
    private readonly projects: ProjectService,
    private readonly audits: AuditService,
    private readonly repo = new ComparisonRepository(),
    private readonly segmentResults = new SegmentService(),
  ) {}

  /**
   * Each of the project's segments in both audits (its rule as it is now, applied to each), with the deltas. The
   * scores are each audit's own formula over the segment's URLs (SegmentService), not the settings-adjusted ones,
   * before "won't fix" markings (a marking is no progress, as for the audit's own delta).
   */
  async segments(db: NativeDb, principal: Principal | null, c: Comparison): Promise<SegmentComparison[]> {
    const [base, head] = await Promise.all([
      this.segmentResults.results(db, principal, c.base.id, 'before'),
      this.segmentResults.results(db, principal, c.head.id, 'before'),
    ]);
    const baseOf = new Map(base.map((r) => [r.segment.id, r]));
    return head.flatMap((h) => {
      const b = baseOf.get(h.segment.id);
      if (!b) return [];
      return [
        {
          base: b,
          head: h,
          urlsDelta: h.urls - b.urls,
          overallDelta: h.scores.overall - b.scores.overall,
          healthDelta: Math.round((h.health - b.health) * 10) / 10,
          criticalDelta: h.issueCounts.critical - b.issueCounts.critical,
          warningDelta: h.issueCounts.warning - b.issueCounts.warning,
          noticeDelta: h.issueCounts.notice - b.issueCounts.notice,
        },
      ];
    });
  }

  /**
   * The two audits to compare. Without `head`, the latest completed audit; without `base`, the completed audit
   * before `head`; a completed audit still checking its external links is not one of them (named, it is refused).
   * Both must be completed audits of the project, and differ. Another organization's project or audit is NOT_FOUND,
   * as is a project with fewer than two completed audits when none is named.
   */
  async open(
    em: EntityManager,
    principal: Principal | null,
    projectId: string,
    ids: { base?: string | null; head?: string | null },
  ): Promise<Comparison> {
    const project = await this.projects.findOwned(em, assertApiAccess(principal, 'read'), projectId);
    // A named audit is read through the audit service: NOT_FOUND when it is not this project's.
    const named = (id: string | null | undefined) => (id ? this.audits.get(em, principal, project.id, id) : null);
    const [head, base] = await Promise.all([named(ids.head), named(ids.base)]);
    for (const [name, audit] of [
      ['head', head],
      ['base', base],
    ] as const)
      if (audit && (audit.status !== 'COMPLETED' || !audit.completedAt))
        throw badInput(`The ${name} audit is ${audit.status}: only completed audits can be compared.`, [
          { path: name, message: `audit is ${audit.status}` },
        ]);
      else if (audit && audit.externalLinksFinal === false)
        throw badInput(
          `The ${name} audit is still checking its external links (${audit.externalLinksChecked ?? 0} of ` +
            `${audit.externalLinksFound ?? 0} checked): it can be compared once their verdicts are in.`,
          [{ path: name, message: 'external link checks still running' }],
        );
    if (head && base && head.id === base.id)
      throw badInput('base and head are the same audit: name two different audits.', [
        { path: 'base', message: 'same audit as head' },
      ]);
    const resolvedHead = head ?? (await this.latestCompleted(em, project.id, null, base));
    const resolvedBase = base ?? (resolvedHead && (await this.latestCompleted(em, project.id, resolvedHead, null)));
    if (!resolvedHead || !resolvedBase)
      throw notFound(
        head || base
          ? 'Another completed audit of this project to compare with'
          : 'Two completed audits of this project',
      );
    const breakdowns = await this.repo.auditBreakdowns(em, { base: resolvedBase.id, head: resolvedHead.id });
    const settingChanges = checkSettingChanges(breakdowns.base?.overrides, breakdowns.head?.overrides);
    return {
      projectId: project.id,
      base: resolvedBase,
      head: resolvedHead,
      settingChanges,
      wontFixMarked: Boolean(breakdowns.base?.wontFix || breakdowns.head?.wontFix),
      comparable: comparableScores(resolvedBase, resolvedHead, breakdowns, settingChanges),
    };
  }

  /** The latest completed audit of the project, completed before `before` when given, and never `except`. */
  private async latestCompleted(
    em: EntityManager,
    projectId: string,
    before: Audit | null,
    except: Audit | null,
  ): Promise<Audit | null> {
    const refs = await this.repo.completedAudits(em, projectId, 2, before?.completedAt ?? null);
    const ref = refs.find((r) => r.id !== except?.id);
    return ref ? this.repo.findAudit(em, ref.id) : null;
  }

  /** The per-code counts of the pair (of one code when given), read once per comparison object. */
  private codeCounts(em: EntityManager, c: Comparison, code: string | null = null): Promise<CodeChangeRow[]> {
    c.codeCounts ??= new Map();
    const key = code ?? '';
    let rows = c.codeCounts.get(key);
    if (!rows) {
      rows = this.repo.codeChanges(em, pairOf(c), code);
      c.codeCounts.set(key, rows);
      // A failed read is not kept: the next field asks again.
      rows.catch(() => c.codeCounts?.delete(key));
    }
    return rows;
  }

  /**
   * The scores of both audits, and their change under the checks both ran: with the same settings, after − before;
   * with a check switched off (or on) between them, each without the checks the other did not run.
   */
  scores(c: Comparison): ScoreDelta[] {
    // A "won't fix" marking is neither progress nor, undone, a drop: marked audits compare as scored before markings.
    const same = c.settingChanges.length === 0 && !c.wontFixMarked;
    return SCORE_CATEGORIES.map((category) => {
      const before = SCORE_OF[category](c.base) ?? null;
      const after = SCORE_OF[category](c.head) ?? null;
      const key = category.toLowerCase() as keyof AuditScores;
      const comparableBefore = same ? before : (c.comparable.base?.[key] ?? null);
      const comparableAfter = same ? after : (c.comparable.head?.[key] ?? null);
      const delta = comparableBefore === null || comparableAfter === null ? null : comparableAfter - comparableBefore;
      return { category, before, after, comparableBefore, comparableAfter, delta };
    });
  }

  /** Per check code, its new, fixed and persisting URLs: most severe first, then the most new, then the code. */
  async codes(em: EntityManager, c: Comparison, change: IssueChange | null = null): Promise<CodeChangeRow[]> {
    const rows = await this.codeCounts(em, c);
    // A copy: the rows are shared by the other fields of the comparison.
    return sortCodes(change ? rows.filter((r) => COUNT_OF[change](r) > 0) : [...rows]);
  }

  async totals(em: EntityManager, c: Comparison): Promise<ComparisonTotals> {
    const [codes, pages] = await Promise.all([this.codeCounts(em, c), this.repo.pageChangeTotals(em, pairOf(c))]);
    const sum = (f: (r: CodeChangeRow) => number) => codes.reduce((n, r) => n + f(r), 0);
    return {
      newIssues: sum(COUNT_OF.NEW),
      fixedIssues: sum(COUNT_OF.FIXED),
      goneIssues: sum(COUNT_OF.GONE),
      notCheckedIssues: sum(COUNT_OF.NOT_CHECKED),
      newlyCheckedIssues: sum(COUNT_OF.NEWLY_CHECKED),
      persistingIssues: sum(COUNT_OF.PERSISTING),
      ...pages,
    };
  }

  /** One page of the (code, URL) occurrences of a change, optionally of one code, in (code, URL) order. */
  async issues(
    em: EntityManager,
    c: Comparison,
    query: { change: IssueChange; code?: string | null; first: number; after?: string | null },
  ): Promise<Slice<IssueChangeRecord & { change: IssueChange }>> {
    assertFirst(query.first);
    const code = query.code ?? null;
    const scope = ['issues', c.base.id, c.head.id, query.change, code];
    const keyset = query.after ? decodeCursor(query.after, scope, 2) : null;
    const pair = pairOf(c);
    const [rows, counts] = await Promise.all([
      this.repo.issueChanges(em, pair, query.change, {
        code,
        after: keyset ? { code: keyset[0] as string, url: keyset[1] as string } : null,
        limit: query.first + 1,
      }),
      this.codeCounts(em, c, code),
    ]);
    const nodes = rows.slice(0, query.first).map((r) => ({ ...r, change: query.change }));
    const last = nodes.at(-1);
    return {
      nodes,
      totalCount: counts.reduce((n, r) => n + COUNT_OF[query.change](r), 0),
      hasNextPage: rows.length > query.first,
      endCursor: last ? encodeCursor([...scope, last.code, last.url]) : null,
    };
  }

  /** One page of the URLs added, removed, or changed in status or indexability (any of `changes`), in URL order. */
  async pages(
    em: EntityManager,
    c: Comparison,
    query: { changes: PageChange[]; first: number; after?: string | null },
  ): Promise<Slice<PageChangeRecord & { changes: PageChange[] }>> {
    assertFirst(query.first);
    const changes = [...new Set(query.changes)].sort();
    const scope = ['pages', c.base.id, c.head.id, changes.join(',')];
    const keyset = query.after ? decodeCursor(query.after, scope, 1) : null;
    const pair = pairOf(c);
    const [rows, totalCount] = await Promise.all([
      this.repo.pageChanges(em, pair, { changes, after: (keyset?.[0] as string) ?? null, limit: query.first + 1 }),
      this.repo.pageChangeCount(em, pair, changes),
    ]);
    const nodes = rows.slice(0, query.first).map((r) => ({ ...r, changes: changesOf(r.before, r.after) }));
    const last = nodes.at(-1);
    return {
      nodes,
      totalCount,
      hasNextPage: rows.length > query.first,
      endCursor: last ? encodeCursor([...scope, last.url]) : null,
    };
  }

  /**
   * Per custom extractor either audit ran (audit.extractors, in the order they were added): how many URLs crawled by
   * both had its value changed, appeared or disappeared.
   */
  extractions(db: NativeDb, c: Comparison): Promise<ExtractionChangeRow[]> {
    return this.repo.extractionChanges(db, pairOf(c));
  }

  /**
   * One page of the URLs crawled by both audits whose value of the extractor `key` changed, appeared or disappeared
   * (any of `changes`; all three when empty), in URL order, with both values as text. BAD_USER_INPUT for a key
   * neither audit ran.
   */
  async extractionPages(
    db: NativeDb,
    c: Comparison,
    query: { key: string; changes: ExtractionChange[]; first: number; after?: string | null },
  ): Promise<Slice<ExtractionChangeRecord>> {
    assertFirst(query.first);
    const pair = pairOf(c);
    const known = await this.repo.auditExtractors(db, pair);
    if (!known.some((e) => e.key === query.key))
      throw badInput(`Neither audit ran an extractor with the key "${query.key}".`, [
        { path: 'key', message: 'not an extractor of these audits' },
      ]);
    const changes = query.changes.length
      ? [...new Set(query.changes)].sort()
      : (['APPEARED', 'CHANGED', 'DISAPPEARED'] as ExtractionChange[]);
    const scope = ['extraction', c.base.id, c.head.id, query.key, changes.join(',')];
    const keyset = query.after ? decodeCursor(query.after, scope, 1) : null;
    const [rows, totalCount] = await Promise.all([
      this.repo.extractionPages(db, pair, {
        key: query.key,
        changes,
        after: (keyset?.[0] as string) ?? null,
        limit: query.first + 1,
      }),
      this.repo.extractionPageCount(db, pair, query.key, changes),
    ]);
    const nodes = rows.slice(0, query.first);
    const last = nodes.at(-1);
    return {
      nodes,
      totalCount,
      hasNextPage: rows.length > query.first,
      endCursor: last ? encodeCursor([...scope, last.url]) : null,
    };
  }

  /** One URL before and after: its page on each side and its check codes with their change; null if never crawled. */
  async url(
    em: EntityManager,
    c: Comparison,
    url: string,
  ): Promise<{
    url: string;
    before: PageSide | null;
    after: PageSide | null;
    changes: PageChange[];
    issues: UrlIssueChangeRow[];
  } | null> {
    if (!url || url.length > 4096)
      throw badInput('url must be 1-4096 characters.', [{ path: 'url', message: 'length' }]);
    const pair = pairOf(c);
    const [sides, issues] = await Promise.all([
      this.repo.pageSides(em, pair, url),
      this.repo.urlIssueChanges(em, pair, url),
    ]);
    if (!sides.before && !sides.after && !issues.length) return null;
    const rank = (s: string) => SEVERITY_ORDER[s as keyof typeof SEVERITY_ORDER] ?? 3;
    const order = Object.fromEntries(ISSUE_CHANGES.map((change, i) => [change, i])) as Record<IssueChange, number>;
    issues.sort(
      (a, b) =>
        order[a.change] - order[b.change] || rank(a.severity) - rank(b.severity) || a.code.localeCompare(b.code),
    );
    return { url, ...sides, changes: changesOf(sides.before, sides.after), issues };
  }

  /**
   * One piece of the comparison as CSV (RFC 4180, UTF-8 with a BOM in the first piece): ISSUES, one row per
   * occurrence, by change in ISSUE_CHANGES order (new, fixed, gone, not checked, newly checked, persisting), each in
   * (code, URL) order; PAGES, one row per changed URL. Keyset pieces of at
   * most `size` rows, so that no one holds a whole comparison in memory.
   */
  async csvPiece(
    em: EntityManager,
    c: Comparison,
    rows: ComparisonRows,
    query: { after?: string | null; size: number },
  ): Promise<ComparisonCsvPiece> {
    if (!Number.isInteger(query.size) || query.size < 1 || query.size > MAX_COMPARISON_CSV_PIECE)
      throw badInput(`size must be between 1 and ${MAX_COMPARISON_CSV_PIECE}.`, [{ path: 'size', message: 'range' }]);
    const scope = ['csv', rows, c.base.id, c.head.id];
    const day = (a: Audit) => (a.completedAt ?? a.createdAt).toISOString().slice(0, 10);
    const filename = `audit-comparison-${day(c.base)}-${day(c.head)}-${rows.toLowerCase()}.csv`;
    const pair = pairOf(c);
    let content = query.after ? '' : CSV_BOM + csvRow(COMPARISON_CSV_COLUMNS[rows]);
    if (rows === 'PAGES') {
      const [after] = query.after ? decodeCursor(query.after, scope, 1) : [null];
      const found = await this.repo.pageChanges(em, pair, {
        changes: [],
        after: after as string | null,
        limit: query.size + 1,
      });
      const piece = found.slice(0, query.size);
      for (const r of piece)
        content += csvRow([
          r.url,
          changesOf(r.before, r.after).join(' '),
          r.before?.statusCode ?? null,
          r.after?.statusCode ?? null,
          r.before?.indexable ?? null,
          r.after?.indexable ?? null,
        ]);
      const more = found.length > query.size;
      return {
        filename,
        content,
        rows: piece.length,
        nextCursor: more ? encodeCursor([...scope, piece.at(-1)!.url]) : null,
      };
    }
    const [changeAt, code, url] = query.after ? decodeCursor(query.after, scope, 3) : ['0', '', ''];
    let index = Number(changeAt);
    if (!Number.isInteger(index) || index < 0 || index >= CHANGES.length)
      throw badInput('after is not a cursor of this list.');
    let keyset = query.after ? { code: code as string, url: url as string } : null;
    let written = 0;
    for (; index < CHANGES.length; index++, keyset = null) {
      const change = CHANGES[index];
      const found = await this.repo.issueChanges(em, pair, change, {
        code: null,
        after: keyset,
        limit: query.size - written + 1,
      });
      const piece = found.slice(0, query.size - written);
      for (const r of piece) content += csvRow([change, r.code, r.title, r.severity, r.category, r.url]);
      written += piece.length;
      if (found.length > piece.length) {
        const last = piece.at(-1)!;
        return {
          filename,
          content,
          rows: written,
          nextCursor: encodeCursor([...scope, String(index), last.code, last.url]),
        };
      }
    }
    return { filename, content, rows: written, nextCursor: null };
  }
}

/**
 * Both audits' scores under the checks both ran, each as scored before any "won't fix" marking: each without the
 * checks the other did not run (switched off in its settings). A changed severity prices an issue differently on
 * each side: no comparable scores then.
 */
function comparableScores(
  base: Audit,
  head: Audit,
  breakdowns: { base: ScoreBreakdown | null; head: ScoreBreakdown | null },
  changes: CheckSettingChange[],
): Comparison['comparable'] {
  if (changes.some((c) => c.change === 'SEVERITY')) return { base: null, head: null };
  const offIn = (kind: CheckSettingChange['change']) => changes.filter((c) => c.change === kind).map((c) => c.code);
  const unmarked = (a: Audit, breakdown: ScoreBreakdown | null) =>
    scoredBeforeWontFix(
      {
        overall: a.overallScore ?? null,
        meta: a.metaScore ?? null,
        content: a.contentScore ?? null,
        links: a.linksScore ?? null,
        technical: a.technicalScore ?? null,
        performance: a.performanceScore ?? null,
      },
      breakdown,
    );
  const [b, h] = [unmarked(base, breakdowns.base), unmarked(head, breakdowns.head)];
  return {
    // Checks the head did not run (DISABLED) are left out of the base, and those the base did not run of the head.
    base: rescoreWithout(b.scores, b.breakdown, offIn('DISABLED')),
    head: rescoreWithout(h.scores, h.breakdown, offIn('ENABLED')),
  };
}

/** Most severe first, then the most new URLs, then the most fixed, then the code. */
function sortCodes(rows: CodeChangeRow[]): CodeChangeRow[] {
  const rank = (s: string) => SEVERITY_ORDER[s as keyof typeof SEVERITY_ORDER] ?? 3;
  return rows.sort(
    (a, b) =>
      rank(a.severity) - rank(b.severity) ||
      b.newUrls - a.newUrls ||
      b.fixedUrls - a.fixedUrls ||
      a.code.localeCompare(b.code),
  );
}

/**
 * What the alerts of a completed audit are evaluated on, beside its scores: the issues new since `base` per code
 * (with up to `examples` URLs each; an issue of a check the base did not run is newly checked, not new), how the
 * check settings changed (a settings change alone is no score drop), and the URLs that regressed (200 before, now
 * 4xx/5xx or no longer indexable; up to `regressions`). No principal: the alert worker evaluates its own project's
 * audits, which it names by id.
 */
export async function comparisonAlertFacts(
  db: NativeDb,
  pair: AuditPair,
  limits = { examples: 5, regressions: 100 },
  repo = new ComparisonRepository(),
): Promise<{
  newIssues: NewIssueFacts[];
  pageRegressions: PageRegressionRecord[];
  settingChanges: CheckSettingChange[];
  /** Each audit's scores before "won't fix" markings, where its stored scores leave marked occurrences out. */
  beforeWontFix: { base: AuditScoresOrNull | null; head: AuditScoresOrNull | null };
}> {
  const [codes, examples, pageRegressions, breakdowns] = await Promise.all([
    repo.codeChanges(db, pair),
    repo.newExamples(db, pair, limits.examples),
    repo.pageRegressions(db, pair, limits.regressions),
    repo.auditBreakdowns(db, pair),
  ]);
  const urlsOf = new Map(examples.map((e) => [e.code, e.urls]));
  const newIssues = sortCodes(codes.filter((r) => r.newUrls > 0)).map((r) => ({
    code: r.code,
    title: r.title,
    severity: r.severity as NewIssueFacts['severity'],
    urls: r.newUrls,
    exampleUrls: urlsOf.get(r.code) ?? [],
  }));
  return {
    newIssues,
    pageRegressions,
    settingChanges: checkSettingChanges(breakdowns.base?.overrides, breakdowns.head?.overrides),
    beforeWontFix: { base: unmarkedScores(breakdowns.base), head: unmarkedScores(breakdowns.head) },
  };
}

type AuditScoresOrNull = { [K in keyof AuditScores]: number | null };

/** The scores an audit's breakdown gives before its "won't fix" markings; null when it has none. */
function unmarkedScores(breakdown: ScoreBreakdown | null): AuditScoresOrNull | null {
  if (!breakdown?.wontFix) return null;
  return scoredBeforeWontFix(NO_STORED_SCORES, breakdown).scores;
}

const NO_STORED_SCORES: AuditScoresOrNull = {
  overall: null,
  meta: null,
  content: null,
  links: null,
  technical: null,
  performance: null,
};

/** One check code's new occurrences, for alerts. */
export interface NewIssueFacts {
  code: string;
  title: string;
  severity: 'CRITICAL' | 'WARNING' | 'NOTICE';
  urls: number;
  exampleUrls: string[];
}

/** Which of the four changes a URL's two sides show. */
export function changesOf(before: PageSide | null, after: PageSide | null): PageChange[] {
  if (!before) return ['ADDED'];
  if (!after) return ['REMOVED'];
  const changes: PageChange[] = [];
  if (before.statusCode !== after.statusCode) changes.push('STATUS_CHANGED');
  if (before.indexable !== after.indexable) changes.push('INDEXABILITY_CHANGED');
  return changes;
}
