import { Readable } from 'node:stream';
import {
  V1ExportFileDocument,
  type ExportFormat,
  type ExportKind,
  type V1ExportFileQuery,
} from '../generated/graphql.js';
import { attachmentName } from '../rest/csv.js';
import type { RunOperation, StreamRoute } from '../rest/rest-mapper.js';
import { READ_ERRORS, errors } from '../openapi/components.js';

/** Rows per GraphQL piece: one piece in memory at a time. */
const PIECE = 2000;

const COLUMNS: Record<ExportKind, string> = {
  ISSUES: 'code,title,severity,category,url,evidence (one row per issue occurrence)',
  PAGES:
    'url,finalUrl,statusCode,depth,title,metaDescription,kind,indexable,wordCount,responseTimeMs,bytes,inlinks,' +
    'outlinks,linkCount,linksNotRead,issueCount,error (one row per crawled page; inlinks: distinct crawled pages ' +
    "linking to it, as the page view counts them; linkCount: the page's links, linksNotRead: those past the per-page " +
    'cap, not checked)',
  KEYWORDS:
    'term,country,language,device,position,previousPosition,change,bestPosition,url,lastChecked,lastCheckStatus,' +
    'lastError (one row per tracked keyword; change > 0: the keyword climbed)',
};

type Piece = V1ExportFileQuery['exportFile'];

/** The export's pieces, fetched one after the other with the cursor of the previous one. */
async function* pieces(
  run: RunOperation,
  vars: { projectId: string; kind: ExportKind; format: ExportFormat; auditId: string | null },
  first: Piece,
) {
  let piece = first;
  yield piece.content;
  while (piece.nextCursor) {
    ({ exportFile: piece } = await run(V1ExportFileDocument, { ...vars, after: piece.nextCursor, size: PIECE }));
    yield piece.content;
  }
}

/** GET /api/v1/projects/:projectId/exports/:kind — the web app's CSV/JSON downloads, for an API key, streamed. */
export const exportRoutes: StreamRoute[] = [
  {
    method: 'GET',
    url: '/api/v1/projects/:projectId/exports/:kind',
    surface: 'A',
    summary: "Export an audit's issues or crawled pages, or the project's keywords, as CSV or JSON (streamed)",
    schema: {
      params: {
        type: 'object',
        properties: {
          projectId: { type: 'string', minLength: 1, maxLength: 200, description: 'Project id.' },
          kind: {
            type: 'string',
            enum: ['issues', 'pages', 'keywords'],
            description:
              "issues: the audit's issue occurrences; pages: its crawled pages; keywords: the tracked keywords.",
          },
        },
        required: ['projectId', 'kind'],
        additionalProperties: false,
      },
      querystring: {
        type: 'object',
        properties: {
          format: { type: 'string', enum: ['csv', 'json'], description: 'csv (default) or json.' },
          auditId: {
            type: 'string',
            minLength: 1,
            maxLength: 200,
            description: 'issues and pages: an audit of the project; without it, the latest completed audit.',
          },
        },
      },
      response: {
        200: {
          description:
            'The file, sent as an attachment. CSV: RFC 4180, UTF-8 with a BOM; a text cell starting with =, +, -, ' +
            '@, tab or CR is prefixed with an apostrophe. JSON: `{ kind, exportedAt, project, audit, rows: [...] }`, ' +
            'each row an object with the CSV columns as keys.',
          content: {
            'text/csv': {
              schema: {
                type: 'string',
                description:
                  `Columns: issues: ${COLUMNS.ISSUES}; pages: ${COLUMNS.PAGES}; ` + `keywords: ${COLUMNS.KEYWORDS}.`,
              },
            },
            'application/json': {
              schema: {
                type: 'object',
                required: ['kind', 'exportedAt', 'project', 'audit', 'rows'],
                properties: {
                  kind: { type: 'string', enum: ['issues', 'pages', 'keywords'] },
                  exportedAt: { type: 'string', format: 'date-time' },
                  project: {
                    type: 'object',
                    required: ['id', 'name', 'domain'],
                    properties: { id: { type: 'string' }, name: { type: 'string' }, domain: { type: 'string' } },
                  },
                  audit: {
                    type: ['object', 'null'],
                    description: 'The exported audit (null for keywords).',
                    required: ['id', 'status', 'completedAt'],
                    properties: {
                      id: { type: 'string' },
                      status: { type: 'string' },
                      completedAt: { type: ['string', 'null'], format: 'date-time' },
                    },
                  },
                  rows: { type: 'array', items: { type: 'object', additionalProperties: true } },
                },
              },
            },
          },
        },
        ...errors(...READ_ERRORS),
      },
    },
    async respond({ params, query }, run, reply) {
      const vars = {
        projectId: params.projectId,
        kind: params.kind.toUpperCase() as ExportKind,
        format: ((query.format as string | undefined) ?? 'csv').toUpperCase() as ExportFormat,
        auditId: (query.auditId as string | undefined) ?? null,
      };
      // The first piece before any byte is sent: access and existence errors still get their status.
      const { exportFile: first } = await run(V1ExportFileDocument, { ...vars, after: null, size: PIECE });
      return reply
        .header('content-type', first.contentType)
        .header('content-disposition', attachmentName(first.filename))
        .send(Readable.from(pieces(run, vars, first)));
    },
  },
];
