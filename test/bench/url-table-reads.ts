import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { readFileSync } from 'node:fs';
import { operationDocument } from './graphql-documents.js';

/*
 * The URL table's part of `npm run bench -- audit-100k` (issue 50, performance): the reads a person makes in the
 * pages explorer and on an issue's URLs (the web app's own AuditUrlTable document), and the export of the whole
 * 100,000-row view over a real socket, with the API process's memory sampled while it streams.
 */

export const URL_TABLE_GOAL_P95_MS = 150;

/** The web app's audits documents: the URL table's query spreads the audit heading fragment of audits.graphql. */
const AUDITS_DOCUMENTS = ['url-table.graphql', 'audits.graphql']
  .map((file) => readFileSync(new URL(`../../facades/web/src/features/audits/${file}`, import.meta.url), 'utf8'))
  .join('\n');

export interface UrlTableRead {
  name: string;
  label: string;
  query: string;
  variables: Record<string, unknown>;
  goalMs: number;
  verify?: (data: Record<string, unknown>) => void;
}

interface TableData {
  audit: { urlTable: { totalCount: number; rows: { url: string; values: unknown[] }[] } };
}

/** An issue's URLs with its evidence columns (the URL table scoped to one check). */
const ISSUE_URLS = `query BenchIssueUrls($projectId: ID!, $auditId: ID!, $first: Int!, $after: String,
  $columns: [String!], $sort: UrlTableSortInput, $filter: UrlTableFilterInput, $checkCode: String) {
  audit(projectId: $projectId, auditId: $auditId) {
    urlTable(first: $first, after: $after, columns: $columns, sort: $sort, filter: $filter, checkCode: $checkCode) {
      totalCount
      rows { id url values }
    }
  }
}`;

const COLUMNS = ['url', 'status', 'indexable', 'title', 'words', 'depth', 'inlinks', 'issues'];

/** The explorer's reads: its first page, a sort on each kind of column, the filter builder and an issue's URLs. */
export async function urlTableReads(opts: {
  pool: pg.Pool;
  auditId: string;
  topIssueCode: string;
  /** A segment of about a tenth of the URLs (a URL regex) and one of all the articles (a path prefix). */
  segments: { tenth: { id: string; pattern: string }; articles: { id: string; pattern: string } };
  check: (condition: unknown, message: string) => void;
}): Promise<UrlTableRead[]> {
  const { pool, auditId, topIssueCode, segments, check } = opts;
  const query = operationDocument(AUDITS_DOCUMENTS, 'AuditUrlTable');
  const one = async <T>(sql: string, params: unknown[]) => (await pool.query(sql, params)).rows[0] as T;
  const pages = await one<{ n: number }>('SELECT count(*)::int AS n FROM audit_page WHERE audit_id = $1', [auditId]);
  const filtered = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_page p WHERE p.audit_id = $1 AND (
       (p.url ~ '/articles/[0-9]*7-' AND p.word_count > 300)
       OR EXISTS (SELECT 1 FROM issue_occurrence o WHERE o.audit_id = $1 AND o.url = p.url AND o.code = $2))`,
    [auditId, topIssueCode],
  );
  const regexOnly = await one<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_page p WHERE p.audit_id = $1 AND p.url ~ '/articles/[0-9]*7-'`,
    [auditId],
  );
  const inSegment = await one<{ tenth: number; articles: number }>(
    `SELECT count(*) FILTER (WHERE url ~ $2)::int AS tenth, count(*) FILTER (WHERE url LIKE $3)::int AS articles
     FROM audit_page WHERE audit_id = $1`,
    [auditId, segments.tenth.pattern, `%${segments.articles.pattern}%`],
  );
  const occurrences = await one<{ n: number }>(
    'SELECT count(*)::int AS n FROM issue_occurrence WHERE audit_id = $1 AND code = $2',
    [auditId, topIssueCode],
  );
  const read = (
    name: string,
    label: string,
    v: Record<string, unknown>,
    verify?: (t: TableData['audit']['urlTable']) => void,
  ): UrlTableRead => ({
    name,
    label,
    query,
    goalMs: URL_TABLE_GOAL_P95_MS,
    variables: { auditId, first: 50, after: null, columns: COLUMNS, sort: null, filter: null, ...v },
    verify: (d) => {
      const table = (d as unknown as TableData).audit.urlTable;
      check(table.rows.length === Math.min(50, table.totalCount), `${name}: ${table.rows.length} rows`);
      verify?.(table);
    },
  });
  const sorted = (field: string, direction: 'ASC' | 'DESC') =>
    read(`url-table-sort-${field}`, `URL table, sorted by ${field} ${direction.toLowerCase()}`, {
      sort: { field, direction },
    });
  return [
    read('url-table-first', 'URL table, first page (8 columns)', {}, (t) =>
      check(t.totalCount === pages.n, `first page: ${t.totalCount} of ${pages.n}`),
    ),
    sorted('title', 'ASC'),
    sorted('words', 'DESC'),
    sorted('inlinks', 'DESC'),
    sorted('response_time', 'DESC'),
    sorted('issues', 'DESC'),
    sorted('critical_issues', 'DESC'),
    sorted('inlinks_content', 'DESC'),
    read(
      'url-table-segment',
      `URL table, a segment's URLs (URL regex, ${inSegment.tenth} URLs), by words desc`,
      { segment: segments.tenth.id, sort: { field: 'words', direction: 'DESC' } },
      (t) => check(t.totalCount === inSegment.tenth, `segment: ${t.totalCount}, the rows say ${inSegment.tenth}`),
    ),
    ...(['tenth', 'articles'] as const).map((which): UrlTableRead => ({
      name: `segment-scores-${which}`,
      label: `a segment's scores and counts (AuditSegmentSummary, ${inSegment[which]} URLs)`,
      query: operationDocument(AUDITS_DOCUMENTS, 'AuditSegmentSummary'),
      goalMs: URL_TABLE_GOAL_P95_MS,
      variables: { auditId, segmentId: segments[which].id },
      verify: (d) => {
        const got = (d as { audit: { segment: { urls: number } } }).audit.segment.urls;
        check(got === inSegment[which], `segment ${which}: ${got} URLs, the rows say ${inSegment[which]}`);
      },
    })),
    read(
      'url-table-filter',
      'URL table, filter builder (URL regex AND words > 300) OR has issue',
      {
        sort: { field: 'words', direction: 'DESC' },
        filter: {
          combinator: 'OR',
          groups: [
            {
              combinator: 'AND',
              conditions: [
                { field: 'url', operator: 'regex', value: '/articles/[0-9]*7-' },
                { field: 'words', operator: 'gt', value: '300' },
              ],
            },
            { combinator: 'AND', conditions: [{ field: 'issue', operator: 'eq', value: topIssueCode }] },
          ],
        },
      },
      (t) => check(t.totalCount === filtered.n, `filter: ${t.totalCount}, the rows say ${filtered.n}`),
    ),
    read(
      'url-table-regex',
      'URL table, filter builder: a URL regex alone (on every row)',
      {
        filter: {
          combinator: 'AND',
          groups: [
            {
              combinator: 'AND',
              conditions: [{ field: 'url', operator: 'regex', value: '/articles/[0-9]*7-' }],
            },
          ],
        },
      },
      (t) => check(t.totalCount === regexOnly.n, `regex: ${t.totalCount}, the rows say ${regexOnly.n}`),
    ),
    {
      ...read(
        'url-table-issue',
        `an issue's URLs as the URL table (${topIssueCode}, ${occurrences.n} URLs)`,
        {
          checkCode: topIssueCode,
          columns: null,
        },
        (t) => check(t.totalCount === occurrences.n, `issue URLs: ${t.totalCount} of ${occurrences.n}`),
      ),
      query: ISSUE_URLS,
    },
  ];
}

export interface ExportMemory {
  label: string;
  rows: number;
  bytes: number;
  seconds: number;
  /** Peak RSS of this process while the export streamed, above its RSS just before. */
  peakRssGrowthMb: number;
  peakHeapGrowthMb: number;
}

/**
 * Streams an export over a real socket and samples this process's memory (the API runs in it) every 20 ms.
 * Rows are counted from the CSV's lines, so a truncated export shows.
 */
export async function measureExport(opts: {
  app: FastifyInstance;
  path: string;
  apiKey: string;
  label: string;
}): Promise<ExportMemory> {
  const address = opts.app.server.address();
  if (!address || typeof address === 'string') throw new Error('audit-100k bench: the API is not listening');
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 20);
  const started = performance.now();
  try {
    const response = await fetch(`http://127.0.0.1:${address.port}${opts.path}`, {
      headers: { authorization: `Bearer ${opts.apiKey}` },
    });
    if (response.status !== 200 || !response.body)
      throw new Error(`audit-100k bench: export answered ${response.status}: ${await response.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    return {
      label: opts.label,
      rows: lines - 1,
      bytes,
      seconds: (performance.now() - started) / 1000,
      peakRssGrowthMb: (peakRss - before.rss) / 2 ** 20,
      peakHeapGrowthMb: (peakHeap - before.heapUsed) / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
  }
}
