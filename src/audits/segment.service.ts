import type { Principal } from '../platform/context.js';
import { badInput, DomainError, notFound } from '../platform/errors.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { isUuid, newId } from '../platform/ids.js';
import { assertApiAccess } from '../identity/index.js';
import type { Category, Severity } from '../seo/checks/index.js';
import { scoreAudit, type AuditScores, type ScoredCheck } from '../seo/scoring/index.js';
import { rankedUrlsOf } from './ranked-urls.js';
import { isDuplicateName, SegmentRepository, type SegmentRow, type SegmentWrite } from './segment.repository.js';
import { SEGMENT_KINDS, segmentFilterInput, type SegmentKind } from './segment-rule.js';
import { UrlTableRepository, type SegmentFacts } from './url-table.repository.js';
import { UrlTableService, type UrlFilterInput } from './url-table.service.js';

export const MAX_SEGMENTS_PER_PROJECT = 50;
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

/**
 * The segment's scores: the audit's scoring function (scoreAudit) over the checks as they fell on the segment's
 * URLs (each check's affected pages counted among them) and the segment's HTML pages. Lab metrics, the start URL's
 * status and "won't fix" markings are the whole site's and stay out.
 */
export function scoreSegment(facts: SegmentFacts): Pick<SegmentResult, 'scores' | 'health' | 'issueCounts'> {
  const checks: ScoredCheck[] = facts.checks.map((c) => ({
    code: c.code,
    severity: c.severity as Severity,
    category: c.category as Category,
    affectedPages: c.affected,
    applicablePages: Math.max(facts.htmlPages, c.affected),
  }));
  const { scores, breakdown } = scoreAudit(checks, {
    pages: { html: facts.htmlPages, withCritical: facts.htmlWithCritical },
  });
  const count = (severity: string) => facts.checks.filter((c) => c.severity === severity).length;
  return {
    scores,
    health: breakdown.health,
    issueCounts: { critical: count('CRITICAL'), warning: count('WARNING'), notice: count('NOTICE') },
  };
}

/**
 * A project's segments (at most 50, names unique per project regardless of case) and their results in an audit.
 * A rule is refused at save when it would not run: a regular expression neither JavaScript nor PostgreSQL can
 * compile, a path without a leading slash, a filter the URL table refuses. Another organization's project, audit or
 * segment is NOT_FOUND.
 */
export class SegmentService {
  constructor(
    private readonly repo = new SegmentRepository(),
    private readonly table = new UrlTableService(),
    private readonly tableRepo = new UrlTableRepository(),
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
    const row = isUuid(id) ? await this.repo.remove(db, projectId, id) : null;
    if (!row) throw notFound('Segment');
    return row;
  }

  /** Every segment of the audit's project with its results in the audit (NOT_FOUND for another's audit). */
  async results(db: NativeDb, principal: Principal | null, auditId: string): Promise<SegmentResult[]> {
    const p = assertApiAccess(principal, 'read');
    const audit = isUuid(auditId) ? await this.tableRepo.ownedAudit(db, auditId, p.organizationId) : null;
    if (!audit) throw notFound('Audit');
    const segments = await this.repo.list(db, audit.projectId);
    const results: SegmentResult[] = [];
    for (const segment of segments) results.push(await this.resultOf(db, auditId, audit.projectId, segment));
    return results;
  }

  /** One segment's results in the audit (NOT_FOUND for another's audit or a segment of another project). */
  async result(db: NativeDb, principal: Principal | null, auditId: string, segmentId: string): Promise<SegmentResult> {
    const p = assertApiAccess(principal, 'read');
    const audit = isUuid(auditId) ? await this.tableRepo.ownedAudit(db, auditId, p.organizationId) : null;
    if (!audit) throw notFound('Audit');
    const segment = isUuid(segmentId) ? await this.repo.find(db, audit.projectId, segmentId) : null;
    if (!segment) throw notFound('Segment');
    return this.resultOf(db, auditId, audit.projectId, segment);
  }

  private async resultOf(
    db: NativeDb,
    auditId: string,
    projectId: string,
    segment: SegmentRow,
  ): Promise<SegmentResult> {
    const rule = await this.table.compileRule(db, segmentFilterInput(segment));
    const facts = await this.tableRepo.segmentFacts(db, auditId, rule, () => rankedUrlsOf(db, projectId, auditId));
    return { segment, urls: facts.urls, htmlPages: facts.htmlPages, ...scoreSegment(facts) };
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
    try {
      await this.table.compileRule(db, segmentFilterInput({ kind, pattern, filter: null }));
    } catch {
      throw refuse('input.pattern', 'not a regular expression PostgreSQL accepts');
    }
    return { name, kind, pattern, filter: null };
  }
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
