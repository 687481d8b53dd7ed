import { Readable } from 'node:stream';
import {
  V1UrlTableExportDocument,
  type SortDirection,
  type UrlTableExportFormat,
  type UrlTableFilterInput,
  type V1UrlTableExportQuery,
} from '../generated/graphql.js';
import { badInput } from '../../src/platform/errors.js';
import { attachmentName } from '../rest/csv.js';
import type { StreamRoute } from '../rest/rest-mapper.js';
import { READ_ERRORS, errors } from '../openapi/components.js';

/** Table rows per GraphQL piece: one piece in memory at a time. */
const PIECE = 1000;

type Piece = V1UrlTableExportQuery['audit']['urlTableExport'];

const FILTER_SHAPE =
  'filter must be JSON: { "combinator"?: "AND"|"OR", "groups": [{ "combinator"?: "AND"|"OR", "conditions": ' +
  '[{ "field": "...", "operator": "...", "value"?: ..., "valueTo"?: ... }] }] }';

const refuse = (path: string, message: string) => badInput(`${path}: ${message}`, [{ path, message }]);

/** A condition value as the GraphQL input carries it (a string), or null. */
function valueText(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw refuse(path, 'must be a string, number or boolean');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The filter query parameter (JSON) as the GraphQL input; its rules are the domain's. */
function filterOf(text: string | undefined): UrlTableFilterInput | null {
  if (text === undefined || text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw refuse('filter', FILTER_SHAPE);
  }
  if (!isObject(parsed) || !Array.isArray(parsed.groups)) throw refuse('filter', FILTER_SHAPE);
  return {
    combinator: typeof parsed.combinator === 'string' ? parsed.combinator : 'AND',
    groups: parsed.groups.map((group: unknown, g) => {
      if (!isObject(group) || !Array.isArray(group.conditions)) throw refuse(`filter.groups[${g}]`, FILTER_SHAPE);
      return {
        combinator: typeof group.combinator === 'string' ? group.combinator : 'AND',
        conditions: group.conditions.map((c: unknown, i) => {
          const path = `filter.groups[${g}].conditions[${i}]`;
          if (!isObject(c) || typeof c.field !== 'string' || typeof c.operator !== 'string')
            throw refuse(path, 'needs a field and an operator (strings)');
          return {
            field: c.field,
            operator: c.operator,
            value: valueText(c.value, `${path}.value`),
            valueTo: valueText(c.valueTo, `${path}.valueTo`),
          };
        }),
      };
    }),
  };
}

/** `field` or `field:asc` / `field:desc`. */
function sortOf(text: string | undefined): { field: string; direction: SortDirection } | null {
  if (text === undefined || text === '') return null;
  const [field, direction = 'asc'] = text.split(':');
  if (!field || !['asc', 'desc'].includes(direction.toLowerCase()))
    throw refuse('sort', 'must be a field key, optionally followed by :asc or :desc');
  return { field, direction: direction.toUpperCase() as SortDirection };
}

const bytesOf = (piece: Piece): Buffer | string =>
  piece.encoding === 'BASE64' ? Buffer.from(piece.content, 'base64') : piece.content;

/** GET /api/v1/projects/:projectId/audit/urls/export — the URL table as shown, streamed. */
export const urlTableRoutes: StreamRoute[] = [
  {
    method: 'GET',
    url: '/api/v1/projects/:projectId/audit/urls/export',
    surface: 'A',
    summary: "Export an audit's URL table as shown (columns, filter, sort, one check's URLs) as CSV, JSON or XLSX",
    schema: {
      params: {
        type: 'object',
        properties: { projectId: { type: 'string', minLength: 1, maxLength: 200, description: 'Project id.' } },
        required: ['projectId'],
        additionalProperties: false,
      },
      querystring: {
        type: 'object',
        properties: {
          auditId: {
            type: 'string',
            minLength: 1,
            maxLength: 200,
            description: 'An audit of the project; without it, the latest audit.',
          },
          format: { type: 'string', enum: ['csv', 'json', 'xlsx'], description: 'csv (default), json or xlsx.' },
          columns: {
            type: 'string',
            maxLength: 4000,
            description:
              'Field keys, comma-separated (GraphQL urlTableFields; with checkCode also its evidence.* columns). ' +
              'Default: url,status,indexable,title,words,depth,inlinks,issues (and every evidence column).',
          },
          filter: {
            type: 'string',
            maxLength: 20000,
            description:
              'JSON: { "combinator": "AND"|"OR", "groups": [{ "combinator": "AND"|"OR", "conditions": [{ "field", ' +
              '"operator", "value", "valueTo" }] }] }. Operators: eq, neq, contains, not_contains, regex, gt, gte, ' +
              'lt, lte, between (value and valueTo), is_empty, is_not_empty, each for the field types it fits; ' +
              'field "issue" with eq/neq and a check code: has / has not that issue; field "segment" with eq/neq ' +
              'and a segment id: in / not in that segment.',
          },
          sort: {
            type: 'string',
            maxLength: 100,
            description:
              'A sortable field key, optionally :asc or :desc (default url:asc; with checkCode, ranking ' +
              'URLs first).',
          },
          checkCode: {
            type: 'string',
            maxLength: 100,
            description: "One check's URLs (an issue), its evidence flattened into columns.",
          },
          segment: {
            type: 'string',
            maxLength: 100,
            description:
              "Only this segment's URLs: a segment id of the project (GraphQL Project.segments); 404 otherwise.",
          },
        },
        additionalProperties: false,
      },
      response: {
        200: {
          description:
            'The file, sent as an attachment and streamed. CSV: RFC 4180, UTF-8 with a BOM, the header row the ' +
            "columns' labels; a text cell starting with =, +, -, @, tab or CR is prefixed with an apostrophe. JSON: " +
            '`{ auditId, checkCode, exportedAt, columns: [{ key, label, type }], rows: [{ <key>: value }] }`. XLSX: ' +
            'one worksheet, the labels in its first row.',
          content: {
            'text/csv': { schema: { type: 'string' } },
            'application/json': {
              schema: {
                type: 'object',
                required: ['auditId', 'checkCode', 'exportedAt', 'columns', 'rows'],
                properties: {
                  auditId: { type: 'string' },
                  checkCode: { type: ['string', 'null'] },
                  exportedAt: { type: 'string', format: 'date-time' },
                  columns: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['key', 'label', 'type'],
                      properties: { key: { type: 'string' }, label: { type: 'string' }, type: { type: 'string' } },
                    },
                  },
                  rows: { type: 'array', items: { type: 'object', additionalProperties: true } },
                },
              },
            },
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
              schema: { type: 'string', format: 'binary' },
            },
          },
        },
        ...errors(...READ_ERRORS),
      },
    },
    async respond({ params, query }, run, reply) {
      const columns = typeof query.columns === 'string' && query.columns ? query.columns.split(',') : null;
      const vars = {
        projectId: params.projectId,
        auditId: (query.auditId as string | undefined) ?? null,
        format: ((query.format as string | undefined) ?? 'csv').toUpperCase() as UrlTableExportFormat,
        columns: columns?.map((c) => c.trim()) ?? null,
        sort: sortOf(query.sort as string | undefined),
        filter: filterOf(query.filter as string | undefined),
        checkCode: (query.checkCode as string | undefined) || null,
        segment: (query.segment as string | undefined) || null,
        size: PIECE,
      };
      // The first piece before any byte is sent: access, existence and input errors still get their status.
      const { audit } = await run(V1UrlTableExportDocument, { ...vars, after: null });
      async function* pieces() {
        let piece = audit.urlTableExport;
        yield bytesOf(piece);
        while (piece.nextCursor) {
          ({
            audit: { urlTableExport: piece },
          } = await run(V1UrlTableExportDocument, { ...vars, after: piece.nextCursor }));
          yield bytesOf(piece);
        }
      }
      return reply
        .header('content-type', audit.urlTableExport.contentType)
        .header('content-disposition', attachmentName(audit.urlTableExport.filename))
        .send(Readable.from(pieces()));
    },
  },
];
