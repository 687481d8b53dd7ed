import { Readable } from 'node:stream';
import {
  ApiAuditOccurrencesDocument,
  ApiReportsDocument,
  type ApiAuditOccurrencesQuery,
} from '../generated/graphql.js';
import { CSV_BOM, attachmentName, csvRow } from '../rest/csv.js';
import { pathParams } from '../rest/route-schemas.js';
import type { RunOperation, StreamRoute } from '../rest/rest-mapper.js';
import { READ_ERRORS, Report, arrayOf, body, errors } from '../openapi/components.js';

const PAGE = 1000;
const AUDIT_COLUMNS = [
  'auditId',
  'status',
  'createdAt',
  'completedAt',
  'overall',
  'meta',
  'content',
  'links',
  'technical',
  'performance',
  'pagesCrawled',
  'critical',
  'warning',
  'notice',
];
const OCCURRENCE_COLUMNS = ['code', 'title', 'severity', 'category', 'url', 'evidence'];

/** Pages through an audit's occurrences with keyset cursors: one page in memory at a time. */
async function* occurrencePages(run: RunOperation, projectId: string, auditId: string) {
  let after: string | null = null;
  for (;;) {
    const { auditOccurrences }: ApiAuditOccurrencesQuery = await run(ApiAuditOccurrencesDocument, {
      projectId,
      auditId,
      first: PAGE,
      after,
    });
    yield auditOccurrences.nodes;
    if (!auditOccurrences.pageInfo.hasNextPage) return;
    after = auditOccurrences.pageInfo.endCursor;
  }
}

/** GET /api/projects/:id/reports — JSON (default) or CSV; with auditId, the issue occurrences of that audit. */
export const reportRoutes: StreamRoute[] = [
  {
    method: 'GET',
    url: '/api/projects/:id/reports',
    surface: 'B',
    summary: 'Audit reports with export options (format=json or csv; auditId for the issue occurrences of one audit)',
    schema: {
      params: pathParams('id'),
      querystring: {
        type: 'object',
        properties: {
          format: { type: 'string', enum: ['json', 'csv'], description: 'json (default) or csv.' },
          auditId: {
            type: 'string',
            minLength: 1,
            maxLength: 200,
            description: 'One audit of the project: its report with every issue occurrence.',
          },
        },
      },
      response: {
        200: {
          description:
            'JSON (default) or CSV (`format=csv`, sent as an attachment). Without auditId: one entry (row) ' +
            'per audit; with auditId: that audit, with one entry (row) per issue occurrence.',
          content: {
            'application/json': { schema: body({ reports: arrayOf(Report) }) },
            'text/csv': {
              schema: {
                type: 'string',
                description:
                  'RFC 4180, UTF-8 with a BOM. Columns without auditId: ' +
                  AUDIT_COLUMNS.join(',') +
                  '; with auditId: ' +
                  OCCURRENCE_COLUMNS.join(',') +
                  '.',
              },
            },
          },
        },
        ...errors(...READ_ERRORS),
      },
    },
    async respond({ params, query }, run, reply) {
      const projectId = params.id;
      const auditId = (query.auditId as string | undefined) ?? null;
      const format = (query.format as string | undefined) ?? 'json';
      const { project, reports } = await run(ApiReportsDocument, { projectId, auditId });
      const base = `/api/projects/${projectId}/reports`;
      const withExports = reports.map((r) => ({
        ...r,
        exports: { json: `${base}?auditId=${r.auditId}&format=json`, csv: `${base}?auditId=${r.auditId}&format=csv` },
      }));
      const day = new Date().toISOString().slice(0, 10);

      if (!auditId) {
        if (format === 'json') return reply.send({ reports: withExports });
        const body =
          CSV_BOM +
          csvRow(AUDIT_COLUMNS) +
          reports
            .map((r) => {
              const s = r.scores;
              return csvRow([
                r.auditId,
                r.status,
                r.createdAt,
                r.completedAt,
                s.overall,
                s.meta,
                s.content,
                s.links,
                s.technical,
                s.performance,
                r.pagesCrawled,
                r.issueCounts.critical,
                r.issueCounts.warning,
                r.issueCounts.notice,
              ]);
            })
            .join('');
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', attachmentName(`${project.domain}-audits-${day}.csv`))
          .send(body);
      }

      // Fetch the first page before answering: access and existence errors still get their status.
      const pages = occurrencePages(run, projectId, auditId);
      const first = await pages.next();
      const rest = async function* () {
        if (!first.done) yield first.value;
        for await (const page of pages) yield page;
      };
      if (format === 'csv') {
        const lines = async function* () {
          yield CSV_BOM + csvRow(OCCURRENCE_COLUMNS);
          for await (const page of rest())
            yield page.map((o) => csvRow([o.code, o.title, o.severity, o.category, o.url, o.evidence ?? ''])).join('');
        };
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            attachmentName(`${project.domain}-audit-${auditId.slice(0, 8)}-issues-${day}.csv`),
          )
          .send(Readable.from(lines()));
      }
      const json = async function* () {
        const head = JSON.stringify({ reports: withExports });
        // {"reports":[{...}]} -> {"reports":[{..., "occurrences":[ ... ]}]}
        yield `${head.slice(0, -3)},"occurrences":[`;
        let sep = '';
        for await (const page of rest()) {
          if (!page.length) continue;
          yield (
            sep +
            page
              .map((o) =>
                JSON.stringify({
                  code: o.code,
                  title: o.title,
                  severity: o.severity,
                  category: o.category,
                  url: o.url,
                  evidence: o.evidence ?? null,
                }),
              )
              .join(',')
          );
          sep = ',';
        }
        yield ']}]}';
      };
      return reply.header('content-type', 'application/json; charset=utf-8').send(Readable.from(json()));
    },
  },
];
