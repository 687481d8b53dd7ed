import type { Principal } from '../platform/context.js';
import { badInput, DomainError, notFound } from '../platform/errors.js';
import { querySlot, StatementTimeoutError, type NativeDb } from '../platform/db/native-query.js';
import { isUuid, newId } from '../platform/ids.js';
import { assertApiAccess } from '../identity/index.js';
import type { Category, Severity } from '../seo/checks/index.js';
import { scoreAudit, type AuditScores, type ScoredCheck } from '../seo/scoring/index.js';
import { rankedUrlsOf } from './ranked-urls.js';
import {
  isDuplicateName,
  isStillReferenced,
  SegmentRepository,
  type SegmentRow,
  type SegmentWrite,
} from './segment.repository.js';
import {
  conditionCount,
  MAX_SEGMENT_CONDITIONS,
  MAX_SEGMENTS_PER_PROJECT,
  SEGMENT_KINDS,
  segmentFilterInput,
  segmentMarksKey,
  segmentRuleKey,
  type SegmentKind,
} from './segment-rule.js';
import {
  filterReadsOnlyTheAudit,
  UrlTableRepository,
  type MarkedOccurrences,
  type SegmentFacts,
} from './url-table.repository.js';
import { regexCostProblem, UrlTableService, type UrlFilterInput } from './url-table.service.js';
import { WontFixRepository } from './wont-fix.repository.js';

export { MAX_SEGMENT_CONDITIONS, MAX_SEGMENTS_PER_PROJECT } from './segment-rule.js';
export const SEGMENT_NAME_MAX = 80;
export const SEGMENT_PATTERN_MAX = 500;

export type SegmentView = SegmentRow;

/** A segment as a client writes it: a name and one rule (a pattern for REGEX and PATH, a filter for FILTER). */
export interface SegmentInput {
  name: string;
  kind: string;
  pattern?: string | null;
  filter?: UrlFilterInput | null;
}

/** One segment of an audit: its URLs, and its scores, health and issues by the audit's scoring formula. */
export interface SegmentResult {
  segment: SegmentView;
  urls: number;
  htmlPages: number;
  scores: AuditScores;
  /** % of its HTML pages without a CRITICAL issue, one decimal. */
  health: number;
  /** Checks with occurrences on its URLs, by their severity in the audit. */
  issueCounts: { critical: number; warning: number; notice: number };
}

const refuse = (path: string, message: string) => badInput(`${path}: ${message}`, [{ path, message }]);

const NO_MARKINGS: MarkedOccurrences = { codes: [], urls: [] };
/** The markings key of facts counted with no "won't fix" marking left out (the issues list narrowed to a segment). */
const NO_MARKINGS_KEY = segmentMarksKey(NO_MARKINGS);

/**
 * Whether a segment's scores leave out the occurrences "won't fix" markings cover, as the audit's own score does
 * (`apply`, the default), or are those before any marking (`before`: what two audits compare, as a marking is no
 * progress; docs/scores.md).
 */
export type SegmentWontFix = 'apply' | 'before';

/**
 * The segment's scores: the audit's scoring function (scoreAudit) over the checks as they fell on the segment's
 * URLs (each check's affected pages counted among them, those a "won't fix" marking covers left out) and the
 * segment's HTML pages. Lab metrics and the start URL's status are the whole site's and stay out. Issue counts are
 * the checks found on the segment's URLs, marked ones included (as the issue's affected page count is).
 */
export function scoreSegment(facts: SegmentFacts): Pick<SegmentResult, 'scores' | 'health' | 'issueCounts'> {
  const checks: ScoredCheck[] = facts.checks
    .filter((c) => c.unmarked > 0)
    .map((c) => ({
      code: c.code,
      severity: c.severity as Severity,
      category: c.category as Category,
      affectedPages: c.unmarked,
      applicablePages: Math.max(facts.htmlPages, c.unmarked),
    }));
  const { scores, breakdown } = scoreAudit(checks, {
    pages: { html: facts.htmlPages, withCritical: facts.htmlWithCritical, shownWorse: facts.htmlShownWorse },
  });
  const count = (severity: string) => facts.checks.filter((c) => c.severity === severity).length;
  return {
    scores,
    health: breakdown.health,
    issueCounts: { critical: count('CRITICAL'), warning: count('WARNING'), notice: count('NOTICE') },
  };
}

/**
 * A project's segments (at most MAX_SEGMENTS_PER_PROJECT, each FILTER rule at most MAX_SEGMENT_CONDITIONS
 * conditions; names unique per project regardless of case) and their results in an audit.
 * A rule is refused at save when it would not run: a regular expression neither JavaScript nor PostgreSQL can
 * compile, a path without a leading slash, a filter the URL table refuses. Another organization's project, audit or
 * segment is NOT_FOUND.
 */
export class SegmentService {
  constructor(
    private readonly repo = new SegmentRepository(),
    private readonly table = new UrlTableService(),
    private readonly tableRepo = new UrlTableRepository(),
    private readonly wontFix = new WontFixRepository(),
  ) {}

  async list(db: NativeDb, principal: Principal | null, projectId: string): Promise<SegmentView[]> {
    await this.owned(db, principal, projectId, 'read');
    return this.repo.list(db, projectId);
  }

  async get(db: NativeDb, principal: Principal | null, projectId: string, id: string): Promise<SegmentView> {
    await this.owned(db, principal, projectId, 'read');
    const row = isUuid(id) ? await this.repo.find(db, projectId, id) : null;
    if (!row) throw notFound('Segment');
    return row;
  }

  async create(
    db: NativeDb,
    principal: Principal | null,
    projectId: string,
    input: SegmentInput,
  ): Promise<SegmentView> {
    await this.owned(db, principal, projectId, 'write');
    const write = await this.validate(db, input);
    const row = await this.named(write.name, () =>
      this.repo.insert(db, projectId, newId(), write, MAX_SEGMENTS_PER_PROJECT),
    );
    if (!row) throw refuse('projectId', `a project has at most ${MAX_SEGMENTS_PER_PROJECT} segments`);
    return row;
  }

  async update(
    db: NativeDb,
    principal: Principal | null,
    projectId: string,
    id: string,
    input: SegmentInput,
  ): Promise<SegmentView> {
    await this.owned(db, principal, projectId, 'write');
    if (!isUuid(id) || !(await this.repo.find(db, projectId, id))) throw notFound('Segment');
    const write = await this.validate(db, input);
    const row = await this.named(write.name, () => this.repo.update(db, projectId, id, write));
    if (!row) throw notFound('Segment');
    return row;
  }

  async remove(db: NativeDb, principal: Principal | null, projectId: string, id: string): Promise<SegmentView> {
    await this.owned(db, principal, projectId, 'write');
    let row: SegmentRow | null;
    try {
      row = isUuid(id) ? await this.repo.remove(db, projectId, id) : null;
    } catch (error) {
      // An alert rule watches it (alert_rule.segment_id): its alerts would lose their subject.
      if (isStillReferenced(error))
        throw refuse('id', 'an alert rule watches this segment: change the rule or delete it first');
      throw error;
    }
    if (!row) throw notFound('Segment');
    return row;
  }

  /** Every segment of the audit's project with its results in the audit (NOT_FOUND for another's audit). */
  async results(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    wontFix: SegmentWontFix = 'apply',
    signal?: AbortSignal | null,
  ): Promise<SegmentResult[]> {
    const p = assertApiAccess(principal, 'read');
    const audit = isUuid(auditId) ? await this.tableRepo.ownedAudit(db, auditId, p.organizationId) : null;
    if (!audit) throw notFound('Audit');
    const segments = await this.repo.list(db, audit.projectId);
    const marked = await this.markedIn(db, auditId, wontFix);
    const run: SegmentRead = { organizationId: p.organizationId, signal };
    const results: SegmentResult[] = [];
    for (const segment of segments)
      results.push(await this.resultOf(db, { id: auditId, ...audit }, segment, marked, wontFix === 'apply', run));
    return results;
  }

  /** One segment's results in the audit (NOT_FOUND for another's audit or a segment of another project). */
  async result(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    segmentId: string,
    wontFix: SegmentWontFix = 'apply',
    signal?: AbortSignal | null,
  ): Promise<SegmentResult> {
    const p = assertApiAccess(principal, 'read');
    const audit = isUuid(auditId) ? await this.tableRepo.ownedAudit(db, auditId, p.organizationId) : null;
    if (!audit) throw notFound('Audit');
    const segment = isUuid(segmentId) ? await this.repo.find(db, audit.projectId, segmentId) : null;
    if (!segment) throw notFound('Segment');
    const marked = await this.markedIn(db, auditId, wontFix);
    const run: SegmentRead = { organizationId: p.organizationId, signal };
    return this.resultOf(db, { id: auditId, ...audit }, segment, marked, wontFix === 'apply', run);
  }

  /**
   * What alerts evaluate a watched segment on (no principal: the worker's, for audits of the project): each of
   * `segmentIds` that is still the project's, with its scores in both audits before "won't fix" markings and, per
   * check of `newCodes` (the checks new in the audit, site-wide), the segment's URLs on which it is new.
   */
  async alertFacts(
    db: NativeDb,
    projectId: string,
    pair: { base: string; head: string },
    segmentIds: readonly string[],
    newCodes: readonly string[],
  ): Promise<
    {
      segment: SegmentView;
      before: AuditScores;
      after: AuditScores;
      newIssues: { code: string; urls: number; exampleUrls: string[] }[];
    }[]
  > {
    const wanted = new Set(segmentIds);
    const segments = (await this.repo.list(db, projectId)).filter((s) => wanted.has(s.id));
    const none = { codes: [], urls: [] };
    const facts = [];
    for (const segment of segments) {
      // A stored rule too costly to run (saved before the cost check) is refused by name, never run.
      const rule = await this.table.compileRule(db, segmentFilterInput(segment), { stored: segment.name });
      const ranked = (auditId: string) => () => rankedUrlsOf(db, projectId, auditId);
      const [base, head, newIssues] = await Promise.all([
        this.tableRepo.segmentFacts(db, pair.base, rule, ranked(pair.base), none),
        this.tableRepo.segmentFacts(db, pair.head, rule, ranked(pair.head), none),
        this.tableRepo.segmentNewIssues(db, pair.head, pair.base, rule, newCodes, ranked(pair.head)),
      ]);
      facts.push({ segment, before: scoreSegment(base).scores, after: scoreSegment(head).scores, newIssues });
    }
    return facts;
  }

  /**
   * Per check found on the segment's URLs in the audit: the distinct URLs it affects there and its occurrences
   * there (the issues list narrowed to a segment). NOT_FOUND for another's audit or a segment of another project.
   */
  async issuesIn(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    segmentId: string,
    signal?: AbortSignal | null,
  ): Promise<Map<string, { affected: number; occurrences: number }>> {
    const p = assertApiAccess(principal, 'read');
    const audit = isUuid(auditId) ? await this.tableRepo.ownedAudit(db, auditId, p.organizationId) : null;
    if (!audit) throw notFound('Audit');
    const segment = isUuid(segmentId) ? await this.repo.find(db, audit.projectId, segmentId) : null;
    if (!segment) throw notFound('Segment');
    const facts = await this.factsOf(db, { id: auditId, ...audit }, segment, NO_MARKINGS, false, {
      organizationId: p.organizationId,
      signal,
    });
    return new Map(facts.checks.map((c) => [c.code, { affected: c.affected, occurrences: c.occurrences }]));
  }

  /** The occurrences the audit's own score leaves out as "won't fix" (none before markings). */
  private markedIn(db: NativeDb, auditId: string, wontFix: SegmentWontFix): Promise<MarkedOccurrences> {
    return wontFix === 'apply' ? this.wontFix.appliedMarkings(db, auditId) : Promise.resolve(NO_MARKINGS);
  }

  private async resultOf(
    db: NativeDb,
    audit: { id: string; projectId: string; completed: boolean },
    segment: SegmentRow,
    marked: MarkedOccurrences,
    applied: boolean,
    run: SegmentRead,
  ): Promise<SegmentResult> {
    const facts = await this.factsOf(db, audit, segment, marked, applied, run);
    return { segment, urls: facts.urls, htmlPages: facts.htmlPages, ...scoreSegment(facts) };
  }

  /**
   * The segment's facts in the audit: counted (every URL of the audit read), then kept when the audit is COMPLETED
   * and the rule reads only its rows, so later reads take one row (audit_segment_facts, keyed by the rule and the
   * markings). The summary (under the audit's markings, `applied`) and the issues list narrowed to the segment (under
   * none) each keep their own row; a summary's count drops rows under markings no longer applied. Counting is bounded
   * (`run`); a stored rule PostgreSQL stops at the time limit is BAD_USER_INPUT naming the segment.
   */
  private async factsOf(
    db: NativeDb,
    audit: { id: string; projectId: string; completed: boolean },
    segment: SegmentRow,
    marked: MarkedOccurrences,
    applied: boolean,
    run: SegmentRead,
  ): Promise<SegmentFacts> {
    const input = segmentFilterInput(segment);
    const rule = await this.table.compileRule(db, input, { stored: segment.name });
    const keep = audit.completed && filterReadsOnlyTheAudit(rule);
    // The markings it was counted under are part of the key: marking or undoing counts again.
    const key = { rule: segmentRuleKey(input), marks: segmentMarksKey(marked) };
    const stillRead = applied ? [NO_MARKINGS_KEY] : null;
    const kept = keep ? await this.repo.keptFacts(db, audit.id, segment.id, key) : null;
    if (kept) return kept;
    const facts = await querySlot(db, run.organizationId, run.signal, () =>
      this.tableRepo.segmentFacts(db, audit.id, rule, () => rankedUrlsOf(db, audit.projectId, audit.id), marked, {
        cls: 'segment',
        signal: run.signal,
      }),
    ).catch((error: unknown) => {
      throw error instanceof StatementTimeoutError ? slowSegment(error, segment) : error;
    });
    if (keep) await this.repo.keepFacts(db, audit.id, segment.id, key, facts, stillRead);
    return facts;
  }

  private async owned(db: NativeDb, principal: Principal | null, projectId: string, access: 'read' | 'write') {
    const p = assertApiAccess(principal, access);
    if (!isUuid(projectId) || !(await this.repo.projectInOrganization(db, p.organizationId, projectId)))
      throw notFound('Project');
    return p;
  }

  /** The write, or BAD_USER_INPUT naming the duplicate when the project has a segment of that name already. */
  private async named<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isDuplicateName(error)) throw refuse('input.name', `this project has a segment named "${name}" already`);
      throw error;
    }
  }

  private async validate(db: NativeDb, input: SegmentInput): Promise<SegmentWrite> {
    const name = (input.name ?? '').trim();
    if (name.length < 1 || name.length > SEGMENT_NAME_MAX)
      throw refuse('input.name', `1 to ${SEGMENT_NAME_MAX} characters once trimmed`);
    const kind = input.kind as SegmentKind;
    if (!SEGMENT_KINDS.includes(kind)) throw refuse('input.kind', `must be one of ${SEGMENT_KINDS.join(', ')}`);
    if (kind === 'FILTER') {
      if (input.pattern) throw refuse('input.pattern', 'a FILTER segment takes a filter, not a pattern');
      if (!input.filter) throw refuse('input.filter', 'a FILTER segment needs a filter');
      const conditions = conditionCount(input.filter);
      if (conditions > MAX_SEGMENT_CONDITIONS)
        throw refuse(
          'input.filter',
          `a segment's rule has at most ${MAX_SEGMENT_CONDITIONS} conditions over all its groups (this one has ` +
            `${conditions}): split it into several segments or use a REGEX segment`,
        );
      try {
        await this.table.compileRule(db, input.filter);
      } catch (error) {
        throw inInput(error);
      }
      return { name, kind, pattern: null, filter: normalizedFilter(input.filter) };
    }
    if (input.filter) throw refuse('input.filter', `a ${kind} segment takes a pattern, not a filter`);
    const pattern = input.pattern ?? '';
    if (pattern.length < 1 || pattern.length > SEGMENT_PATTERN_MAX)
      throw refuse('input.pattern', `1 to ${SEGMENT_PATTERN_MAX} characters`);
    if (kind === 'PATH') {
      if (!pattern.startsWith('/') || /\s/.test(pattern))
        throw refuse('input.pattern', 'a path prefix starts with / and has no spaces (for example /blog/)');
      return { name, kind, pattern, filter: null };
    }
    try {
      new RegExp(pattern, 'u');
    } catch (error) {
      throw refuse('input.pattern', `not a valid regular expression (${(error as Error).message})`);
    }
    const problem = regexCostProblem(pattern);
    if (problem)
      throw refuse('input.pattern', `a regular expression that could run for seconds per URL was refused: ${problem}`);
    try {
      await this.table.compileRule(db, segmentFilterInput({ kind, pattern, filter: null }));
    } catch {
      throw refuse('input.pattern', 'not a regular expression PostgreSQL accepts');
    }
    return { name, kind, pattern, filter: null };
  }
}

/** Whose read it is: its organization's slots (querySlot), and its caller's signal. */
interface SegmentRead {
  organizationId: string;
  signal?: AbortSignal | null;
}

/** The refusal of a stored segment whose facts PostgreSQL stopped at the time limit: which segment, and what to do. */
function slowSegment(timeout: StatementTimeoutError, segment: SegmentRow): DomainError {
  const message =
    `counting segment "${segment.name}" over this audit's URLs took longer than ${timeout.timeoutMs / 1000} s and ` +
    'PostgreSQL stopped it: edit its rule (a regular expression, a condition on a computed value) to a cheaper one';
  return refuse(`segment(${segment.id})`, message);
}

/** A filter stored as a client reads it back: combinators and conditions only, values as text. */
function normalizedFilter(filter: UrlFilterInput): UrlFilterInput {
  return {
    combinator: (filter.combinator ?? 'AND').toUpperCase(),
    groups: filter.groups.map((g) => ({
      combinator: (g.combinator ?? 'AND').toUpperCase(),
      conditions: g.conditions.map((c) => ({
        field: c.field,
        operator: c.operator,
        ...(c.value !== undefined && c.value !== null ? { value: String(c.value as string | number | boolean) } : {}),
        ...(c.valueTo !== undefined && c.valueTo !== null
          ? { valueTo: String(c.valueTo as string | number | boolean) }
          : {}),
      })),
    })),
  };
}

/** A filter's refusal with its paths under input. */
function inInput(error: unknown): unknown {
  if (!(error instanceof DomainError) || error.code !== 'BAD_USER_INPUT' || !error.details?.length) return error;
  const [first] = error.details;
  return refuse(`input.${first.path}`, first.message);
}
