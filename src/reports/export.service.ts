import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../platform/context.js';
import { CSV_BOM, csvRow } from '../platform/csv.js';
import { DomainError, badInput, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import { findCheck } from '../seo/checks/index.js';
import { assertApiAccess } from '../identity/index.js';
import type { Project, ProjectService } from '../projects/index.js';
import { ReportRepository, type AuditSummaryRow } from './report.repository.js';

export type ExportKind = 'ISSUES' | 'PAGES' | 'KEYWORDS';
export type ExportFormat = 'CSV' | 'JSON';

export const EXPORT_KINDS: readonly ExportKind[] = ['ISSUES', 'PAGES', 'KEYWORDS'];
export const DEFAULT_EXPORT_CHUNK = 2_000;
export const MAX_EXPORT_CHUNK = 5_000;

/**
 * One piece of an export file. The pieces of one export, asked for in turn (`after` = the previous piece's
 * `nextCursor`), concatenate to the whole file: the first carries the CSV header (with the BOM) or the JSON
 * opening, the last (`nextCursor` null) the JSON closing.
 */
export interface ExportChunk {
  filename: string;
  contentType: string;
  content: string;
  /** Data rows in this piece. */
  rows: number;
  nextCursor: string | null;
}

interface Column<R> {
  name: string;
  value: (row: R) => unknown;
}

/** Where a piece ends: the keyset position of its last row and how many rows came before (JSON separators). */
interface Position {
  key: string[];
  written: number;
}

interface KindSpec<R> {
  /** Which audit the export is about; keywords belong to the project. */
  needsAudit: boolean;
  columns: Column<R>[];
  fetch(db: EntityManager, scope: Scope, after: string[] | null, limit: number): Promise<R[]>;
  keyOf(row: R): string[];
  /** Validates a decoded cursor key. */
  validKey(key: string[]): boolean;
}

interface Scope {
  project: Project;
  audit: AuditSummaryRow | null;
}

const ROW_ID = /^[1-9][0-9]{0,17}$/;
const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/**
 * The rows and columns of each export. Issues are one row per occurrence (the columns of
 * GET /api/projects/:id/reports?auditId=…&format=csv), pages one row per crawled page, keywords one row per
 * tracked keyword with its latest ranking.
 */
const KINDS: { [K in ExportKind]: KindSpec<any> } = {
  ISSUES: {
    needsAudit: true,
    columns: [
      { name: 'code', value: (o) => o.code },
      { name: 'title', value: (o) => o.title },
      { name: 'severity', value: (o) => o.severity },
      { name: 'category', value: (o) => o.category },
      { name: 'url', value: (o) => o.url },
      // site: a fact about the site or its server, charged once (its URLs are evidence); page: one per page.
      { name: 'scope', value: (o) => findCheck(o.code)?.scope ?? 'page' },
      { name: 'evidence', value: (o) => o.evidence ?? null },
    ],
    fetch: (db, scope, after, limit) =>
      new ReportRepository().occurrencesAfter(db, scope.audit!.id, after?.[0] ?? '0', limit),
    keyOf: (o: { id: string }) => [o.id],
    validKey: (key) => key.length === 1 && ROW_ID.test(key[0]),
  },
  PAGES: {
    needsAudit: true,
    columns: [
      { name: 'url', value: (p) => p.url },
      { name: 'finalUrl', value: (p) => p.finalUrl },
      { name: 'statusCode', value: (p) => p.statusCode },
      { name: 'depth', value: (p) => p.depth },
      { name: 'title', value: (p) => p.title },
      { name: 'metaDescription', value: (p) => p.metaDescription },
      // The rows are the URLs crawled; kind HTML rows the HTML pages; HTML and indexable the indexable pages.
      { name: 'kind', value: (p) => p.kind },
      { name: 'indexable', value: (p) => p.indexable },
      { name: 'wordCount', value: (p) => p.wordCount },
      { name: 'responseTimeMs', value: (p) => p.responseTimeMs },
      { name: 'bytes', value: (p) => p.bytes },
      // src/audits/inlinks.ts: the pages explorer's, the URL table's and the page view's inlinks.
      { name: 'inlinks', value: (p) => p.inlinks },
      { name: 'outlinks', value: (p) => p.outlinks },
      // The page's links, and those past the per-page cap that were not checked (the page view's sentence).
      { name: 'linkCount', value: (p) => p.linkCount },
      { name: 'linksNotRead', value: (p) => p.linksNotRead },
      { name: 'issueCount', value: (p) => p.issueCount },
      { name: 'error', value: (p) => p.error },
    ],
    fetch: (db, scope, after, limit) =>
      new ReportRepository().pagesAfter(db, scope.audit!.id, after?.[0] ?? '0', limit),
    keyOf: (p: { id: string }) => [p.id],
    validKey: (key) => key.length === 1 && ROW_ID.test(key[0]),
  },
  KEYWORDS: {
    needsAudit: false,
    columns: [
      { name: 'term', value: (k) => k.term },
      { name: 'country', value: (k) => k.country },
      { name: 'language', value: (k) => k.language },
      { name: 'device', value: (k) => k.device },
      { name: 'position', value: (k) => k.position },
      { name: 'previousPosition', value: (k) => k.previousPosition },
      // Positive: the keyword climbed (a smaller position number).
      {
        name: 'change',
        value: (k) => (k.position !== null && k.previousPosition !== null ? k.previousPosition - k.position : null),
      },
      { name: 'bestPosition', value: (k) => k.bestPosition },
      { name: 'url', value: (k) => k.url },
      { name: 'lastChecked', value: (k) => iso(k.lastChecked) },
      { name: 'lastCheckStatus', value: (k) => k.lastCheckStatus },
      { name: 'lastError', value: (k) => k.lastError },
    ],
    fetch: (db, scope, after, limit) =>
      new ReportRepository().keywordsAfter(
        db,
        scope.project.id,
        after ? { createdAt: after[0], id: after[1] } : null,
        limit,
      ),
    keyOf: (k: { createdAt: Date; id: string }) => [iso(k.createdAt)!, k.id],
    validKey: (key) => key.length === 2 && !Number.isNaN(Date.parse(key[0])) && isUuid(key[1]),
  },
};

const CONTENT_TYPES: Record<ExportFormat, string> = {
  CSV: 'text/csv; charset=utf-8',
  JSON: 'application/json; charset=utf-8',
};

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '-');

/**
 * Exports of a project's data as CSV (RFC 4180, UTF-8 with a BOM, formula-injection safe: src/platform/csv.ts)
 * or JSON, in keyset pieces: nothing holds a whole export in memory. The web app asks for the pieces over GraphQL
 * and saves them as one file; GET /api/v1/projects/:projectId/exports/:kind streams them.
 */
export class ExportService {
  constructor(
    private readonly projects: ProjectService,
    private readonly repo = new ReportRepository(),
  ) {}

  async chunk(
    em: EntityManager,
    principal: Principal | null,
    input: {
      projectId: string;
      kind: ExportKind;
      format: ExportFormat;
      auditId?: string | null;
      after?: string | null;
      first?: number | null;
    },
  ): Promise<ExportChunk> {
    const p = assertApiAccess(principal, 'read');
    const spec = KINDS[input.kind];
    if (!spec) throw badInput('kind must be ISSUES, PAGES or KEYWORDS.', [{ path: 'kind', message: 'unknown kind' }]);
    const first = input.first ?? DEFAULT_EXPORT_CHUNK;
    if (!Number.isInteger(first) || first < 1 || first > MAX_EXPORT_CHUNK) {
      throw badInput(`size must be between 1 and ${MAX_EXPORT_CHUNK}.`, [
        { path: 'size', message: `must be 1-${MAX_EXPORT_CHUNK}` },
      ]);
    }
    const project = await this.projects.findOwned(em, p, input.projectId);
    let audit: AuditSummaryRow | null = null;
    if (spec.needsAudit) {
      if (input.auditId && !isUuid(input.auditId)) throw notFound('Audit');
      audit = await this.repo.auditSummary(em, project.id, input.auditId ?? null);
      if (!audit) {
        if (input.auditId) throw notFound('Audit');
        throw new DomainError('NOT_FOUND', 'This project has no completed audit yet: run one, or name an audit.');
      }
    }
    const position = input.after ? this.decode(input.after, input, audit, spec) : null;
    const rows = await spec.fetch(em, { project, audit }, position?.key ?? null, first + 1);
    const page = rows.slice(0, first);
    const last = rows.length <= first;
    const written = position?.written ?? 0;

    let content = '';
    if (input.format === 'CSV') {
      if (!position) content += CSV_BOM + csvRow(spec.columns.map((c) => c.name));
      for (const row of page) content += csvRow(spec.columns.map((c) => c.value(row)));
    } else {
      if (!position) content += this.jsonOpening(input.kind, project, audit);
      page.forEach((row, i) => {
        const object = Object.fromEntries(spec.columns.map((c) => [c.name, c.value(row) ?? null]));
        content += (written + i > 0 ? ',' : '') + JSON.stringify(object);
      });
      if (last) content += ']}';
    }
    const nextCursor = last
      ? null
      : this.encode(input, audit, { key: spec.keyOf(page[page.length - 1]), written: written + page.length });
    return {
      filename: this.filename(project, input.kind, input.format, audit),
      contentType: CONTENT_TYPES[input.format],
      content,
      rows: page.length,
      nextCursor,
    };
  }

  private jsonOpening(kind: ExportKind, project: Project, audit: AuditSummaryRow | null): string {
    const head = {
      kind: kind.toLowerCase(),
      exportedAt: new Date().toISOString(),
      project: { id: project.id, name: project.name, domain: project.domain },
      audit: audit ? { id: audit.id, status: audit.status, completedAt: iso(audit.completedAt) } : null,
    };
    return `${JSON.stringify(head).slice(0, -1)},"rows":[`;
  }

  private filename(project: Project, kind: ExportKind, format: ExportFormat, audit: AuditSummaryRow | null): string {
    const day = new Date().toISOString().slice(0, 10);
    const what = audit ? `audit-${audit.id.slice(0, 8)}-${kind.toLowerCase()}` : kind.toLowerCase();
    return safeName(`${project.domain}-${what}-${day}.${format.toLowerCase()}`);
  }

  /** Cursors are tied to one export (kind, format, audit) and carry the keyset position. */
  private encode(
    input: { kind: ExportKind; format: ExportFormat },
    audit: AuditSummaryRow | null,
    position: Position,
  ): string {
    return Buffer.from(
      JSON.stringify([input.kind, input.format, audit?.id ?? null, position.key, position.written]),
    ).toString('base64url');
  }

  private decode(
    after: string,
    input: { kind: ExportKind; format: ExportFormat },
    audit: AuditSummaryRow | null,
    spec: KindSpec<unknown>,
  ): Position {
    const invalid = () =>
      badInput('after is not a cursor of this export: pass nextCursor of the previous piece.', [
        { path: 'after', message: 'not a cursor of this export' },
      ]);
    if (after.length > 500 || !/^[A-Za-z0-9_-]+$/.test(after)) throw invalid();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!Array.isArray(parsed) || parsed.length !== 5) throw invalid();
    const [kind, format, auditId, key, written] = parsed as unknown[];
    if (kind !== input.kind || format !== input.format || auditId !== (audit?.id ?? null)) throw invalid();
    if (!Array.isArray(key) || !key.every((k) => typeof k === 'string') || !spec.validKey(key as string[]))
      throw invalid();
    if (!Number.isSafeInteger(written) || (written as number) < 1) throw invalid();
    return { key: key as string[], written: written as number };
  }
}
