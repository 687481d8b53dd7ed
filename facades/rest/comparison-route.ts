import { Readable } from 'node:stream';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { ComparisonCsvFragment, ComparisonRows, ComparisonSummaryFragment } from '../generated/graphql.js';
import { AuditComparison, READ_ERRORS, body, errors } from '../openapi/components.js';
import { attachmentName } from './csv.js';
import { pathParams } from './route-schemas.js';
import type { Surface } from '../http/http-guard.js';
import type { RunOperation, StreamRoute } from './rest-mapper.js';

/** Rows per GraphQL piece of the CSV: one piece in memory at a time. */
const PIECE = 2000;

type Pair = { projectId: string; base: string | null; head: string | null };
type SummaryOperation = TypedDocumentNode<{ auditComparison: ComparisonSummaryFragment }, Pair>;
type CsvOperation = TypedDocumentNode<
  { auditComparison: ComparisonCsvFragment },
  Pair & { rows: ComparisonRows; after: string | null; size: number }
>;

const auditIdParam = (what: string) => ({ type: 'string', minLength: 1, maxLength: 200, description: what });

/**
 * GET …/audit/compare on either surface: the comparison of two completed audits as JSON (the summary: scores,
 * totals, per-code changes, the first 100 changed URLs), or as CSV streamed in GraphQL pieces (format=csv; rows=issues,
 * one row per new, fixed or persisting occurrence, or rows=pages, one row per changed URL).
 */
export function comparisonRoute(opts: {
  surface: Surface;
  url: string;
  projectParam: 'id' | 'projectId';
  summary: SummaryOperation;
  csv: CsvOperation;
}): StreamRoute {
  return {
    method: 'GET',
    url: opts.url,
    surface: opts.surface,
    summary:
      'Compare two completed audits: new, fixed, gone, not checked and persisting issues, score deltas (withheld ' +
      'when the check settings differ), changed URLs (JSON or CSV)',
    schema: {
      params: pathParams(opts.projectParam),
      querystring: {
        type: 'object',
        properties: {
          base: auditIdParam('The earlier audit; without it, the completed audit before head.'),
          head: auditIdParam("The later audit; without it, the project's latest completed audit."),
          format: { type: 'string', enum: ['json', 'csv'], description: 'json (default) or csv.' },
          rows: {
            type: 'string',
            enum: ['issues', 'pages'],
            description:
              'CSV only: issues (default; change,code,title,severity,category,url: one row per occurrence, change ' +
              'NEW, FIXED, GONE, NOT_CHECKED, NEWLY_CHECKED or PERSISTING) or pages (url,changes,statusBefore,' +
              'statusAfter,indexableBefore,indexableAfter).',
          },
        },
        additionalProperties: false,
      },
      response: {
        200: {
          description:
            'JSON: the comparison summary. CSV (format=csv, sent as an attachment): RFC 4180, UTF-8 with a BOM.',
          content: {
            'application/json': { schema: body({ comparison: AuditComparison }) },
            'text/csv': { schema: { type: 'string' } },
          },
        },
        ...errors(...READ_ERRORS),
      },
    },
    async respond({ params, query }, run: RunOperation, reply) {
      const pair: Pair = {
        projectId: params[opts.projectParam],
        base: (query.base as string | undefined) ?? null,
        head: (query.head as string | undefined) ?? null,
      };
      if (query.format !== 'csv') {
        const { auditComparison } = await run(opts.summary, pair);
        return reply.send({ comparison: auditComparison });
      }
      const rows = ((query.rows as string | undefined) ?? 'issues').toUpperCase() as ComparisonRows;
      // The first piece before any byte is sent: access and existence errors still get their status.
      const vars = { ...pair, rows, size: PIECE };
      const { auditComparison: first } = await run(opts.csv, { ...vars, after: null });
      async function* pieces() {
        let piece = first.csv;
        yield piece.content;
        while (piece.nextCursor) {
          ({
            auditComparison: { csv: piece },
          } = await run(opts.csv, { ...vars, after: piece.nextCursor }));
          yield piece.content;
        }
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentName(first.csv.filename))
        .send(Readable.from(pieces()));
    },
  };
}
