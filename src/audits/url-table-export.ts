import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../platform/context.js';
import { CSV_BOM, csvRow } from '../platform/csv.js';
import { badInput, notFound } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import type { NativeDb } from '../platform/db/native-query.js';
import { XLSX_CONTENT_TYPE, xlsxEnd, xlsxRows, xlsxStart, type XlsxState } from '../platform/xlsx.js';
import { AuditRepository } from './audit.repository.js';
import { MAX_URL_TABLE_PAGE, UrlTableService, type UrlTableQuery } from './url-table.service.js';

export type UrlTableExportFormat = 'CSV' | 'JSON' | 'XLSX';

/** One piece of an export file: text (CSV, JSON) or base64 bytes (XLSX); the pieces joined in order are the file. */
export interface UrlTableExportPiece {
  filename: string;
  contentType: string;
  encoding: 'UTF8' | 'BASE64';
  content: string;
  rows: number;
  nextCursor: string | null;
}

const CONTENT_TYPES: Record<UrlTableExportFormat, string> = {
  CSV: 'text/csv; charset=utf-8',
  JSON: 'application/json; charset=utf-8',
  XLSX: XLSX_CONTENT_TYPE,
};

/** Where the next piece starts: the table's cursor, the rows written so far, the XLSX writer's state. */
interface ExportCursor {
  table: string;
  rows: number;
  xlsx: XlsxState | null;
}

const notACursor = () =>
  badInput('after is not a valid cursor of this export: pass nextCursor of the previous piece, or no after.', [
    { path: 'after', message: 'not a valid cursor of this export' },
  ]);

/** What a cursor is bound to: the organization, the audit, the format and the view it was issued for. */
type CursorBinding = readonly [organizationId: string, auditId: string, format: UrlTableExportFormat, view: unknown];

/**
 * Export cursors are signed: `<payload>.<HMAC-SHA256>` (base64url), the MAC over the payload and what the cursor is
 * bound to (organization, audit, format, view), with a key derived (HKDF-SHA256, purpose `url-table-export-cursor`)
 * from the platform's secret (BETTER_AUTH_SECRET). The XLSX writer's state in a cursor is trusted by the next piece,
 * so a cursor nobody issued, one altered, or one issued for another organization, audit, format or view is refused
 * with BAD_USER_INPUT before anything of it is used. Changing the secret invalidates exports under way (they restart).
 */
export class ExportCursors {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, 'seo-audit-platform', 'url-table-export-cursor', 32));
  }

  private mac(payload: string, binding: CursorBinding): Buffer {
    return createHmac('sha256', this.key).update(canonical(binding)).update('\n').update(payload).digest();
  }

  seal(cursor: ExportCursor, binding: CursorBinding): string {
    const payload = Buffer.from(JSON.stringify(cursor)).toString('base64url');
    return `${payload}.${this.mac(payload, binding).toString('base64url')}`;
  }

  /** The cursor, or a BAD_USER_INPUT refusal for anything this installation did not issue for this binding. */
  open(after: string, binding: CursorBinding): ExportCursor {
    const match = /^([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{43})$/.exec(after);
    if (!match) throw notACursor();
    // Compared as text: base64url's last character has unused bits, and only the one spelling is ours.
    const given = Buffer.from(match[2]);
    const expected = Buffer.from(this.mac(match[1], binding).toString('base64url'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notACursor();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8'));
    } catch {
      throw notACursor();
    }
    // Signed by us, so well formed; checked all the same (a cursor of an older shape).
    const c = parsed as Partial<ExportCursor> | null;
    const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
    const xlsxOk = c?.xlsx === null || (isCount(c?.xlsx?.crc) && isCount(c?.xlsx?.raw) && isCount(c?.xlsx?.packed));
    if (typeof c?.table !== 'string' || !isCount(c.rows) || !xlsxOk) throw notACursor();
    if ((binding[2] === 'XLSX') !== (c.xlsx !== null)) throw notACursor();
    return c as ExportCursor;
  }
}

/** JSON with object keys sorted and null or absent members dropped: one spelling for one view, however sent. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== null && x !== undefined);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/**
 * "Export as shown": the URL table's current view (its columns, filter, sort, check) as CSV, JSON or XLSX, made in
 * pieces of one keyset page each, so that neither the server nor a transport holds more than a piece. The first
 * piece carries the header (CSV: a BOM and the columns' labels; JSON: the columns; XLSX: the package's parts and
 * the labels' row), the last the end (JSON's closing brackets; XLSX's central directory).
 */
export class UrlTableExportService {
  private readonly cursors: ExportCursors;

  /** `keyMaterial`: the platform's secret (`config.authSecret`), from which the cursors' signing key is derived. */
  constructor(
    keyMaterial: string,
    private readonly table = new UrlTableService(),
  ) {
    this.cursors = new ExportCursors(keyMaterial);
  }

  async piece(
    db: NativeDb,
    principal: Principal | null,
    auditId: string,
    format: UrlTableExportFormat,
    view: Omit<UrlTableQuery, 'first' | 'after' | 'withTotal'>,
    after: string | null | undefined,
    size: number,
    signal?: AbortSignal | null,
  ): Promise<UrlTableExportPiece> {
    if (!Number.isInteger(size) || size < 1 || size > MAX_URL_TABLE_PAGE)
      throw badInput(`size must be 1-${MAX_URL_TABLE_PAGE}.`, [{ path: 'size', message: `1-${MAX_URL_TABLE_PAGE}` }]);
    const binding: CursorBinding = [principal?.organizationId ?? '', auditId, format, view];
    let cursor: ExportCursor | null;
    try {
      // No after (absent, null or empty): the first piece.
      cursor = after === null || after === undefined || after === '' ? null : this.cursors.open(after, binding);
    } catch (err) {
      // Another organization's audit or segment is NOT_FOUND whatever the cursor says: the view is looked up first.
      await this.table.list(db, principal, auditId, { ...view, first: 1, after: null, withTotal: false });
      throw err;
    }
    const page = await this.table.list(
      db,
      principal,
      auditId,
      { ...view, first: size, after: cursor?.table ?? null, withTotal: false },
      { purpose: 'export', signal },
    );
    const first = cursor === null;
    const last = !page.hasNext;
    const before = cursor?.rows ?? 0;
    const values = page.rows.map((r) => r.values as (string | number | boolean | null)[]);
    const labels = page.columns.map((c) => c.label);
    let content: string;
    let xlsx: XlsxState | null = null;
    switch (format) {
      case 'CSV':
        content = (first ? CSV_BOM + csvRow(labels) : '') + values.map(csvRow).join('');
        break;
      case 'JSON': {
        const head = first
          ? `{"auditId":${JSON.stringify(auditId)},"checkCode":${JSON.stringify(view.checkCode ?? null)},` +
            `"exportedAt":${JSON.stringify(new Date().toISOString())},"columns":${JSON.stringify(
              page.columns.map(({ key, label, type }) => ({ key, label, type })),
            )},"rows":[`
          : '';
        const rows = values.map(
          (v, i) =>
            (before + i > 0 ? ',' : '') + JSON.stringify(Object.fromEntries(page.columns.map((c, k) => [c.key, v[k]]))),
        );
        content = head + rows.join('') + (last ? ']}' : '');
        break;
      }
      case 'XLSX': {
        const made = first ? xlsxStart([labels, ...values]) : xlsxRows(values, cursor!.xlsx!);
        xlsx = made.state;
        content = Buffer.concat(last ? [made.bytes, xlsxEnd(made.state)] : [made.bytes]).toString('base64');
        break;
      }
    }
    const scope = view.checkCode ? `-${view.checkCode.toLowerCase()}` : '';
    return {
      filename: `urls-${auditId.slice(0, 8)}${scope}.${format.toLowerCase()}`,
      contentType: CONTENT_TYPES[format],
      encoding: format === 'XLSX' ? 'BASE64' : 'UTF8',
      content,
      rows: values.length,
      nextCursor:
        last || !page.endCursor
          ? null
          : this.cursors.seal({ table: page.endCursor, rows: before + values.length, xlsx }, binding),
    };
  }
}

/**
 * The audit `seo export urls` exports (the project's latest, or the one named) and the organization it belongs to,
 * whose principal the export then runs as. Any organization's project: the CLI is run by the operator of the
 * installation, with its DATABASE_URL, like `seo audit --baseline <audit-id>`. NOT_FOUND for a missing project or an
 * audit of another project.
 */
export async function urlTableExportTarget(
  em: EntityManager,
  projectId: string,
  auditId: string | null,
  repo = new AuditRepository(),
): Promise<{ auditId: string; organizationId: string }> {
  const project = isUuid(projectId) ? await repo.findProject(em, projectId) : null;
  if (!project) throw notFound(`Project ${projectId}`);
  const audit = auditId
    ? isUuid(auditId)
      ? await repo.findInProject(em, auditId, project.id)
      : null
    : await repo.findLatest(em, project.id);
  if (!audit) throw notFound(auditId ? `Audit ${auditId}` : `Audit of project ${projectId}`);
  return { auditId: audit.id, organizationId: project.organizationId };
}
