import { createHash } from 'node:crypto';
import type { Principal } from '../platform/context.js';
import { badInput, DomainError, notFound } from '../platform/errors.js';
import { querySlot, StatementTimeoutError, type NativeDb } from '../platform/db/native-query.js';
import { isUuid } from '../platform/ids.js';
import { assertApiAccess } from '../identity/index.js';
import { findCheck } from '../seo/checks/index.js';
import { regexHazard } from '../seo/extraction/index.js';
import {
  URL_FIELDS_BY_KEY,
  URL_TABLE_FIELDS,
  auditFieldsByKey,
  extractorFields,
  segmentNamesField,
  SEGMENT_NAMES_FIELD,
  UrlTableRepository,
  type UrlColumn,
  type UrlCondition,
  type UrlConditionGroup,
  type UrlField,
  type UrlFieldType,
  type UrlFilter,
  type UrlOperator,
  type UrlTableRow,
  type UrlConditionInput,
  type UrlFilterInput,
} from './url-table.repository.js';

import { AuditPagesRepository } from './audit-pages.repository.js';
import { rankedUrlsOf } from './ranked-urls.js';
import { SegmentMembership } from './segment-membership.js';
import { SegmentRepository } from './segment.repository.js';
import { segmentFilterInput, segmentRuleKey } from './segment-rule.js';
import {
  EVIDENCE_PREFIX,
  evidencePlan,
  evidenceSortField,
  explodedUrls,
  flattenEvidence,
  type EvidencePlan,
} from './url-table-evidence.js';

export type {
  UrlColumn,
  UrlConditionInput,
  UrlField,
  UrlFieldType,
  UrlFilterInput,
  UrlOperator,
} from './url-table.repository.js';
export { URL_TABLE_FIELDS } from './url-table.repository.js';

/** The operators each type of field takes (the filter builder offers these). */
export const OPERATORS_BY_TYPE: Record<UrlFieldType, readonly UrlOperator[]> = {
  text: ['eq', 'neq', 'contains', 'not_contains', 'regex', 'is_empty', 'is_not_empty'],
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'is_empty', 'is_not_empty'],
  bool: ['eq', 'neq'],
  enum: ['eq', 'neq', 'is_empty', 'is_not_empty'],
};
/** The pseudo-field of "has issue X" conditions: eq (has) or neq (has not), the value a check code. */
export const ISSUE_FIELD = 'issue';
/** The pseudo-field of "in segment X" conditions: eq (in) or neq (not in), the value a segment id of the project. */
export const SEGMENT_FIELD = 'segment';
const VALUELESS: ReadonlySet<UrlOperator> = new Set(['is_empty', 'is_not_empty']);

export const DEFAULT_URL_COLUMNS = ['url', 'status', 'indexable', 'title', 'words', 'depth', 'inlinks', 'issues'];
export const MAX_URL_TABLE_PAGE = 1000;
const MAX_COLUMNS = 80;
const MAX_GROUPS = 10;
const MAX_CONDITIONS = 20;
const MAX_VALUE_LENGTH = 500;
const INT32 = 2_147_483_647;
const ROW_ID = /^[1-9][0-9]{0,17}$/;

export interface UrlTableQuery {
  first: number;
  after?: string | null;
  columns?: readonly string[] | null;
  sort?: { field: string; direction?: 'ASC' | 'DESC' | null } | null;
  filter?: UrlFilterInput | null;
  checkCode?: string | null;
  /** Only the URLs of this segment of the audit's project (its id). */
  segment?: string | null;
  /** Count the filter's rows (the GraphQL totalCount; exports skip it). Default true. */
  withTotal?: boolean;
}

/** How a page of the table is read: for the grid (default) or an export, on behalf of a caller who may go away. */
export interface TableRead {
  purpose?: 'grid' | 'export';
  /** Aborted when the caller went away: the statements are cancelled in PostgreSQL. */
  signal?: AbortSignal | null;
}

/**
 * Why a regular expression is too costly for PostgreSQL to run over every URL, or null. PostgreSQL's engine runs a
 * back-reference by backtracking (about 10 s a URL was measured for one), so any is refused; the rest is the
 * extractors' hazard check (regexHazard: nested quantifiers, overlapping repeated alternatives). Its rule against a
 * leading `.*` is about a page's whole text: a table's values are a URL or a title, so the pattern is read as if
 * anchored (`^(?:...)` keeps the rest of the check as it is).
 */
export function regexCostProblem(pattern: string): string | null {
  return regexHazard(`^(?:${pattern})`, 's');
}

/**
 * Why a stored segment's rule is too costly to run, or null: the first of its regular expressions that fails
 * regexCostProblem. A segment saved before the check existed may hold one; it is refused when read (never run, so
 * no read of it starts the runaway statement again) and skipped where members are written ahead of reads.
 */
export function storedRuleCostProblem(rule: UrlFilter): string | null {
  for (const group of rule.groups)
    for (const c of group.conditions) {
      if (c.kind !== 'field' || c.operator !== 'regex') continue;
      const problem = regexCostProblem(String(c.values[0]));
      if (problem) return problem;
    }
  return null;
}

/** The refusal of a read of a stored segment whose rule is too costly (storedRuleCostProblem): it names the segment. */
export const costlySegment = (name: string, problem: string): DomainError =>
  refuse(
    'segment',
    `segment "${name}" holds a regular expression that could run for seconds per URL (${problem}); ` +
      'it was saved before such patterns were refused: edit its rule to read it',
  );

export interface UrlTablePage {
  columns: UrlColumn[];
  rows: { id: string; url: string; values: unknown[] }[];
  hasNext: boolean;
  endCursor: string | null;
  totalCount: number | null;
}

const refuse = (path: string, message: string) => badInput(`${path}: ${message}`, [{ path, message }]);

function combinatorOf(value: string | null | undefined, path: string): 'AND' | 'OR' {
  const c = (value ?? 'AND').toUpperCase();
  if (c !== 'AND' && c !== 'OR') throw refuse(path, `must be AND or OR, not "${value}"`);
  return c;
}

/** A condition's value parsed for its field's type; BAD_USER_INPUT when it is not one. */
function parseValue(field: UrlField, raw: unknown, path: string): string | number | boolean {
  if (raw === undefined || raw === null || raw === '') throw refuse(path, 'a value is required');
  const textValue =
    typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? `${raw}` : null;
  if (textValue === null) throw refuse(path, 'must be a string, number or boolean');
  if (textValue.length > MAX_VALUE_LENGTH) throw refuse(path, `at most ${MAX_VALUE_LENGTH} characters`);
  switch (field.type) {
    case 'text':
      return textValue;
    case 'enum':
      if (!field.options?.includes(textValue))
        throw refuse(path, `"${textValue}" is not one of ${field.key}'s values (${field.options?.join(', ')})`);
      return textValue;
    case 'bool':
      if (textValue !== 'true' && textValue !== 'false') throw refuse(path, 'must be true or false');
      return textValue === 'true';
    case 'number': {
      const n = Number(textValue.trim());
      const fits = field.pgType === 'int' ? Number.isInteger(n) && Math.abs(n) <= INT32 : Number.isFinite(n);
      if (textValue.trim() === '' || !fits)
        throw refuse(path, field.pgType === 'int' ? 'must be a whole number' : 'must be a number');
      return n;
    }
  }
}

function validateCondition(
  input: UrlConditionInput,
  path: string,
  segments: boolean,
  fieldsByKey: ReadonlyMap<string, UrlField>,
): UrlCondition {
  if (input.field === SEGMENT_FIELD) {
    if (!segments) throw refuse(`${path}.field`, "a segment's rule cannot name a segment");
    const names = fieldsByKey.get(SEGMENT_NAMES_FIELD);
    if (
      input.operator !== 'eq' &&
      input.operator !== 'neq' &&
      !names?.operators?.includes(input.operator as UrlOperator)
    )
      throw refuse(
        `${path}.operator`,
        `"${input.operator}" does not apply to segment: use eq (in) or neq (not in) with a segment id, or ` +
          `${names?.operators?.join(', ')} on the names`,
      );
  }
  if (input.field === SEGMENT_FIELD && (input.operator === 'eq' || input.operator === 'neq')) {
    const id = typeof input.value === 'string' ? input.value : '';
    if (!isUuid(id)) throw refuse(`${path}.value`, `"${id}" is not a segment id`);
    return { kind: 'segment', segmentId: id, has: input.operator === 'eq', filter: null };
  }
  if (input.field === ISSUE_FIELD) {
    if (input.operator !== 'eq' && input.operator !== 'neq')
      throw refuse(`${path}.operator`, `"${input.operator}" does not apply to issue: use eq (has) or neq (has not)`);
    const code = typeof input.value === 'string' ? input.value : '';
    if (!findCheck(code)) throw refuse(`${path}.value`, `"${code}" is not a check code`);
    return { kind: 'issue', code, has: input.operator === 'eq' };
  }
  const field = fieldsByKey.get(input.field);
  if (!field) throw refuse(`${path}.field`, `"${input.field}" is not a field of the URL table`);
  if (!field.filterable) throw refuse(`${path}.field`, `${field.key} cannot be filtered on`);
  const operator = input.operator as UrlOperator;
  const operators = field.operators ?? OPERATORS_BY_TYPE[field.type];
  if (!operators.includes(operator))
    throw refuse(
      `${path}.operator`,
      `"${input.operator}" does not apply to ${field.key} (${field.type}): use ${operators.join(', ')}`,
    );
  if (VALUELESS.has(operator)) return { kind: 'field', field, operator, values: [] };
  if (operator === 'contains' || operator === 'not_contains' || operator === 'regex') {
    const value = parseValue({ ...field, type: 'text' }, input.value, `${path}.value`);
    return { kind: 'field', field, operator, values: [value] };
  }
  const values = [parseValue(field, input.value, `${path}.value`)];
  if (operator === 'between') values.push(parseValue(field, input.valueTo, `${path}.valueTo`));
  return { kind: 'field', field, operator, values };
}

/**
 * The filter, validated: its fields, operators and values. Regular expressions are checked by the caller, and so are
 * "in segment" conditions (allowed unless `segments` is false: a segment's own rule names no segment).
 */
export function validateFilter(
  input: UrlFilterInput | null | undefined,
  segments = true,
  fieldsByKey: ReadonlyMap<string, UrlField> = URL_FIELDS_BY_KEY,
): UrlFilter | null {
  if (!input) return null;
  if (!Array.isArray(input.groups)) throw refuse('filter.groups', 'must be a list of groups');
  if (input.groups.length > MAX_GROUPS) throw refuse('filter.groups', `at most ${MAX_GROUPS} groups`);
  const groups = input.groups.map((group, g): UrlConditionGroup => {
    const path = `filter.groups[${g}]`;
    if (!Array.isArray(group?.conditions)) throw refuse(`${path}.conditions`, 'must be a list of conditions');
    if (group.conditions.length > MAX_CONDITIONS)
      throw refuse(`${path}.conditions`, `at most ${MAX_CONDITIONS} conditions`);
    return {
      combinator: combinatorOf(group.combinator, `${path}.combinator`),
      conditions: group.conditions.map((c: UrlConditionInput, i: number) =>
        validateCondition(c, `${path}.conditions[${i}]`, segments, fieldsByKey),
      ),
    };
  });
  return { combinator: combinatorOf(input.combinator, 'filter.combinator'), groups };
}

/** The registry's columns asked for (the default ones when none is), and the evidence columns' keys. */
function validateColumns(
  keys: readonly string[] | null | undefined,
  fieldsByKey: ReadonlyMap<string, UrlField>,
): { fields: UrlField[]; evidence: string[] } {
  const chosen = keys?.length ? [...new Set(keys)] : DEFAULT_URL_COLUMNS;
  if (chosen.length > MAX_COLUMNS) throw refuse('columns', `at most ${MAX_COLUMNS} columns`);
  const fields: UrlField[] = [];
  const evidence: string[] = [];
  chosen.forEach((key, i) => {
    if (key.startsWith(EVIDENCE_PREFIX)) return evidence.push(key);
    const field = fieldsByKey.get(key);
    if (!field) throw refuse(`columns[${i}]`, `"${key}" is not a field of the URL table`);
    fields.push(field);
  });
  return { fields, evidence };
}

/** The evidence columns shown: those asked for (each must be one of the check's), or all of them. */
function chooseEvidence(plan: EvidencePlan, keys: readonly string[]): EvidencePlan {
  if (!keys.length) return plan;
  const columns = keys.map((key) => {
    const column = plan.columns.find((c) => c.key === key);
    if (!column) throw refuse('columns', `"${key}" is not an evidence column of this check`);
    return column;
  });
  return { ...plan, columns };
}

/** A position in one listing: tied to the audit, the scope, the sort and the filter (a digest of it). */
type Cursor = [scope: string, value: string | number | boolean | null, ranked: boolean | null, id: string];

const notACursor = () => refuse('after', 'not a cursor of this table: pass pageInfo.endCursor of a previous page');

function decodeCursor(after: string, scope: string): { value: Cursor[1]; ranked: Cursor[2]; id: string } {
  let parsed: unknown;
  try {
    parsed = /^[A-Za-z0-9_-]+$/.test(after) ? JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) : null;
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw notACursor();
  const [cursorScope, value, ranked, id] = parsed as unknown[];
  if (typeof id !== 'string' || !ROW_ID.test(id)) throw notACursor();
  if (!['string', 'number', 'boolean'].includes(typeof value) && value !== null) throw notACursor();
  if (typeof ranked !== 'boolean' && ranked !== null) throw notACursor();
  if (cursorScope !== scope)
    throw refuse('after', 'belongs to another audit, check, sort or filter: start again without it');
  return { value: value as Cursor[1], ranked, id };
}

/** Whether a field's value is computed per row (a subquery or the segment names), not read from a column. */
const computed = (f: UrlField): boolean => Boolean(f.sqlOf) || /\bSELECT\b/i.test(f.sql);

/**
 * The refusal of a view PostgreSQL stopped at its time limit: BAD_USER_INPUT saying so, with a detail for each part
 * that makes it costly (a regular expression, a condition on a value computed per row, such a sort, a segment's
 * rule), or the filter and the sort as a whole when none stands out.
 */
function slowView(
  timeout: StatementTimeoutError,
  filter: UrlFilter | null,
  sort: UrlField,
  segmentId: string | null,
): DomainError {
  const details: { path: string; message: string }[] = [];
  for (const [g, group] of (filter?.groups ?? []).entries())
    for (const [i, c] of group.conditions.entries()) {
      const path = `filter.groups[${g}].conditions[${i}]`;
      if (c.kind === 'segment') details.push({ path, message: "the segment's rule is read for every URL" });
      else if (c.kind === 'field' && c.operator === 'regex')
        details.push({ path, message: `a regular expression on ${c.field.key} runs for every URL` });
      else if (c.kind === 'field' && computed(c.field))
        details.push({ path, message: `${c.field.key} is computed for every URL` });
    }
  if (computed(sort))
    details.push({ path: 'sort.field', message: `${sort.key} is computed for every URL before the first row` });
  if (segmentId !== null) details.push({ path: 'segment', message: "the segment's rule is read for every URL" });
  if (!details.length)
    details.push(
      { path: 'filter', message: 'the filter matched too slowly' },
      { path: 'sort.field', message: `sorting on ${sort.key}` },
    );
  const seconds = timeout.timeoutMs / 1000;
  return new DomainError(
    'BAD_USER_INPUT',
    `This view took longer than ${seconds} s (the limit of ${
      timeout.cls === 'export' ? "an export's page of rows" : 'a URL table read'
    }) and PostgreSQL stopped it: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}. Narrow the filter, ` +
      'drop those conditions or sort on a stored column.',
    details,
  );
}

const fitsType = (field: UrlField, value: string | number | boolean): boolean => {
  switch (field.pgType) {
    case 'text':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= INT32;
    case 'float8':
      return typeof value === 'number' && Number.isFinite(value);
  }
};

/**
 * The URL table: an audit's URLs (or one check's occurrences) with chosen columns, a filter, a sort on any column
 * (ties by row id, missing values last) and keyset pages with opaque cursors. NOT_FOUND for another organization's
 * audit; BAD_USER_INPUT for an unknown field, an operator that does not fit the field's type, a bad value or a
 * regular expression PostgreSQL refuses.
 */
export class UrlTableService {
  constructor(
    private readonly repo = new UrlTableRepository(),
    private readonly pages = new AuditPagesRepository(),
    private readonly segments = new SegmentRepository(),
    private readonly membership = new SegmentMembership(),
  ) {}

  /** The fields of the URL table, with those of the audit's custom extractors when an audit is named. */
  async fields(db: NativeDb, principal: Principal | null, auditId: string | null): Promise<readonly UrlField[]> {
    if (auditId === null) return URL_TABLE_FIELDS;
    const p = assertApiAccess(principal, 'read');
    const audit = isUuid(auditId) ? await this.repo.ownedAudit(db, auditId, p.organizationId) : null;
    if (!audit) throw notFound('Audit');
    return [...URL_TABLE_FIELDS, ...extractorFields(audit.extractors)];
  }

  /**
   * One page of the table. Its statements are bounded (boundedQuery): `read.purpose` picks the time limit (a grid
   * page, or an export's page of rows), the organization's slots are shared by its grid, export and segment reads,
   * and `read.signal` cancels them when the caller goes away. A statement PostgreSQL stops at the limit is
   * BAD_USER_INPUT naming the filter's costly conditions and the sort (slowView).
   */
  async list(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    query: UrlTableQuery,
    read: TableRead = {},
  ): Promise<UrlTablePage> {
    const p = assertApiAccess(principal, 'read');
    const { first } = query;
    if (!Number.isInteger(first) || first < 1 || first > MAX_URL_TABLE_PAGE)
      throw refuse('first', `must be 1-${MAX_URL_TABLE_PAGE}`);
    // Another organization's audit is NOT_FOUND before its input is read; its extractors add fields.
    const audit = await this.repo.ownedAudit(db, auditId, p.organizationId);
    if (!audit) throw notFound('Audit');
    const fieldsByKey = await this.withSegmentNames(
      db,
      { id: auditId, ...audit },
      auditFieldsByKey(audit.extractors, audit.completed),
      query,
    );
    const { fields: columns, evidence: evidenceKeys } = validateColumns(query.columns, fieldsByKey);
    const checkCode = query.checkCode ?? null;
    if (checkCode !== null && !findCheck(checkCode)) throw refuse('checkCode', `"${checkCode}" is not a check code`);
    if (checkCode === null && evidenceKeys.length)
      throw refuse('columns', "evidence columns need a checkCode (an issue's table)");
    const sortKey = query.sort?.field ?? 'url';
    const byEvidence = checkCode !== null && sortKey.startsWith(EVIDENCE_PREFIX);
    const registered = fieldsByKey.get(sortKey);
    if (!registered && !byEvidence) throw refuse('sort.field', `"${sortKey}" is not a field of the URL table`);
    if (registered && !registered.sortable) throw refuse('sort.field', `${sortKey} cannot be sorted on`);
    const direction = query.sort?.direction ?? 'ASC';
    // An issue's URLs list the ranking ones first unless a sort is asked for.
    const rankingFirst = checkCode !== null && !query.sort;
    const filter = validateFilter(query.filter, true, fieldsByKey);
    await this.assertRegexes(db, filter);
    const segmentId = query.segment ?? null;
    if (segmentId !== null && !isUuid(segmentId)) throw notFound('Segment');
    const digest = createHash('sha256')
      .update(JSON.stringify([auditId, checkCode, sortKey, direction, rankingFirst, query.filter ?? null, segmentId]))
      .digest('base64url')
      .slice(0, 16);
    const cursor = query.after ? decodeCursor(query.after, digest) : null;
    const fullPlan =
      checkCode === null ? null : evidencePlan(checkCode, await this.repo.evidenceShape(db, auditId, checkCode));
    const sortable = new Map(
      (fullPlan?.columns ?? []).flatMap((c) => {
        const f = evidenceSortField(fullPlan!, c);
        return f ? [[c.key, f] as const] : [];
      }),
    );
    const sort = registered ?? sortable.get(sortKey);
    if (!sort)
      throw refuse(
        'sort.field',
        fullPlan?.columns.some((c) => c.key === sortKey)
          ? `${sortKey} cannot be sorted on`
          : `"${sortKey}" is not an evidence column of this check`,
      );
    if (cursor && cursor.value !== null && !fitsType(sort, cursor.value)) throw notACursor();
    await this.resolveSegments(db, { id: auditId, ...audit }, filter);
    const segment = segmentId === null ? null : await this.segmentSlice(db, { id: auditId, ...audit }, segmentId);
    const withTotal = query.withTotal ?? true;
    // A segment's URLs alone: its count is kept with its facts once read (a completed audit's), else counted.
    const keptTotal =
      withTotal && segmentId !== null && checkCode === null && !filter?.groups.some((g) => g.conditions.length)
        ? await this.keptSegmentUrls(db, audit, auditId, segmentId)
        : null;
    const { rows, total } = await querySlot(
      db,
      p.organizationId,
      read.signal,
      () =>
        this.repo.list(
          db,
          {
            auditId,
            organizationId: p.organizationId,
            columns,
            checkCode,
            filter,
            segment,
            sort,
            direction,
            rankingFirst,
            first,
            cursor,
            withTotal: withTotal && keptTotal === null,
          },
          () => rankedUrlsOf(db, audit.projectId, auditId),
          { cls: read.purpose ?? 'grid', signal: read.signal },
        ),
      // An export's pieces are not charged to the organization's share of database time (a stream stopped midway
      // would lose the file); its slots and time limit still bound it.
      read.purpose !== 'export',
    ).catch((error: unknown) => {
      throw error instanceof StatementTimeoutError ? slowView(error, filter, sort, segmentId) : error;
    });
    const page = rows.slice(0, first);
    const last: UrlTableRow | undefined = page.at(-1);
    const plan = fullPlan && chooseEvidence(fullPlan, evidenceKeys);
    return {
      columns: [
        ...columns,
        ...(plan?.columns ?? []).map((c) => ({ ...c, sortable: sortable.has(c.key), filterable: false })),
      ],
      rows: plan
        ? await this.withEvidence(db, auditId, plan, page)
        : page.map(({ id, url, values }) => ({ id, url, values })),
      hasNext: rows.length > first,
      endCursor: last
        ? Buffer.from(JSON.stringify([digest, last.sortValue, last.ranked, last.id] satisfies Cursor)).toString(
            'base64url',
          )
        : null,
      totalCount: keptTotal ?? total,
    };
  }

  /** Each occurrence's row with its evidence columns: one row per item of the evidence's list. */
  private async withEvidence(
    db: NativeDb,
    auditId: string,
    plan: EvidencePlan,
    rows: readonly UrlTableRow[],
  ): Promise<UrlTablePage['rows']> {
    const targets = rows.flatMap((r) => explodedUrls(plan, r.evidence).map((target) => ({ source: r.url, target })));
    const anchors = plan.columns.some((c) => c.path[1] === 'anchor')
      ? await this.pages.linkAnchors(
          db,
          auditId,
          targets.map((t) => t.source),
          targets.map((t) => t.target),
        )
      : [];
    const anchorOf = new Map(anchors.map((a) => [`${a.sourceUrl} ${a.targetUrl}`, a.anchor]));
    return rows.flatMap((r) => {
      const items = flattenEvidence(plan, r.evidence, (target) => anchorOf.get(`${r.url} ${target}`));
      return items.map((values, k) => ({
        id: items.length > 1 ? `${r.id}-${k + 1}` : r.id,
        url: r.url,
        values: [...r.values, ...values],
      }));
    });
  }

  /** The URLs of the segment as kept with its facts in the completed audit (SegmentService), or null. */
  private async keptSegmentUrls(
    db: NativeDb,
    audit: { projectId: string; completed: boolean },
    auditId: string,
    segmentId: string,
  ): Promise<number | null> {
    if (!audit.completed) return null;
    const row = await this.segments.find(db, audit.projectId, segmentId);
    if (!row) return null;
    const kept = await this.segments.keptFacts(db, auditId, segmentId, {
      rule: segmentRuleKey(segmentFilterInput(row)),
      marks: null,
    });
    return kept?.urls ?? null;
  }

  /**
   * The fields with the segment names column over the project's segments, when the query reads it (a column, the
   * sort or a condition on the names); the registry's placeholder otherwise. The stored rules were checked at save.
   */
  private async withSegmentNames(
    db: NativeDb,
    audit: { id: string; projectId: string; completed: boolean },
    fieldsByKey: ReadonlyMap<string, UrlField>,
    query: UrlTableQuery,
  ): Promise<ReadonlyMap<string, UrlField>> {
    const named = (key: string | undefined) => key === SEGMENT_NAMES_FIELD;
    const reads =
      (query.columns ?? []).some(named) ||
      named(query.sort?.field) ||
      (query.filter?.groups ?? []).some((g) =>
        (g?.conditions ?? []).some((c) => named(c?.field) && c.operator !== 'eq' && c.operator !== 'neq'),
      );
    if (!reads) return fieldsByKey;
    const rows = await this.segments.list(db, audit.projectId);
    const rules = rows.flatMap((row) => {
      const rule = validateFilter(segmentFilterInput(row), false);
      return rule ? [{ row, rule }] : [];
    });
    for (const { row, rule } of rules) {
      const problem = storedRuleCostProblem(rule);
      if (problem) throw costlySegment(row.name, problem);
    }
    // Kept members are read by key; only the others' rules go into the statement (SegmentMembership).
    const stored = await this.membership.keep(db, audit, rules);
    const segments = rules.map(({ row, rule }) => ({ id: row.id, name: row.name, rule, stored: stored.has(row.id) }));
    return new Map([...fieldsByKey, [SEGMENT_NAMES_FIELD, segmentNamesField(segments)]]);
  }

  /**
   * A segment of the project as a filter, its URLs only (NOT_FOUND when the project has no such segment): its kept
   * members when the audit has them (SegmentMembership), else its rule.
   */
  private async segmentSlice(
    db: NativeDb,
    audit: { id: string; projectId: string; completed: boolean },
    segmentId: string,
  ): Promise<UrlFilter> {
    const row = isUuid(segmentId) ? await this.segments.find(db, audit.projectId, segmentId) : null;
    if (!row) throw notFound('Segment');
    const rule = await this.compileRule(db, segmentFilterInput(row), { stored: row.name });
    const stored = (await this.membership.keep(db, audit, [{ row, rule }])).has(row.id);
    const condition: UrlCondition = { kind: 'segment', segmentId, has: true, filter: rule, stored };
    return { combinator: 'AND', groups: [{ combinator: 'AND', conditions: [condition] }] };
  }

  /**
   * A segment's rule, validated as a filter that names no segment, its regular expressions checked: PostgreSQL must
   * compile them, and they must pass the cost check. A rule being saved is refused on the condition at fault; a
   * stored one (`stored`: the segment's name) that fails the cost check, saved before the check existed, is refused
   * by the segment's name (costlySegment) before any statement runs it.
   */
  async compileRule(db: NativeDb, input: UrlFilterInput, stored?: { stored: string }): Promise<UrlFilter> {
    const filter = validateFilter(input, false);
    if (!filter || !filter.groups.some((g) => g.conditions.length))
      throw refuse('filter.groups', 'a segment needs at least one condition');
    const problem = stored ? storedRuleCostProblem(filter) : null;
    if (stored && problem) throw costlySegment(stored.stored, problem);
    await this.assertRegexes(db, filter);
    return filter;
  }

  /** Each "in segment" condition with its segment's rule; BAD_USER_INPUT for an id that is not the project's. */
  private async resolveSegments(
    db: NativeDb,
    audit: { id: string; projectId: string; completed: boolean },
    filter: UrlFilter | null,
  ): Promise<void> {
    for (const [g, group] of (filter?.groups ?? []).entries())
      for (const [i, c] of group.conditions.entries()) {
        if (c.kind !== 'segment') continue;
        const row = await this.segments.find(db, audit.projectId, c.segmentId);
        if (!row) throw refuse(`filter.groups[${g}].conditions[${i}].value`, 'not a segment of this project');
        c.filter = await this.compileRule(db, segmentFilterInput(row), { stored: row.name });
        // Its kept members are read, not its rule (SegmentMembership).
        c.stored = (await this.membership.keep(db, audit, [{ row, rule: c.filter }])).has(row.id);
      }
  }

  /** Each regex condition's pattern: cheap enough (regexCostProblem), one PostgreSQL takes. */
  private async assertRegexes(db: NativeDb, filter: UrlFilter | null): Promise<void> {
    for (const [g, group] of (filter?.groups ?? []).entries())
      for (const [i, c] of group.conditions.entries()) {
        if (c.kind !== 'field' || c.operator !== 'regex') continue;
        const problem = regexCostProblem(String(c.values[0]));
        if (problem)
          throw refuse(
            `filter.groups[${g}].conditions[${i}].value`,
            `a regular expression on ${c.field.key} that could run for seconds per URL was refused: ${problem}`,
          );
        const error = await this.repo.regexError(db, String(c.values[0]));
        if (error)
          throw refuse(`filter.groups[${g}].conditions[${i}].value`, `not a valid regular expression (${error})`);
      }
  }
}
