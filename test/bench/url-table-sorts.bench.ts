import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { nativeTransaction, type NativeDb } from '../../src/platform/db/native-query.js';
import { newId } from '../../src/platform/ids.js';
import { AuditResultsRepository } from '../../src/audits/audit-results.repository.js';
import { URL_TABLE_FIELDS } from '../../src/audits/url-table.repository.js';
import { MAX_SEGMENT_CONDITIONS, MAX_SEGMENTS_PER_PROJECT } from '../../src/audits/segment-rule.js';
import { SegmentMembership } from '../../src/audits/segment-membership.js';
import { SegmentRepository } from '../../src/audits/segment.repository.js';
import { segmentFilterInput } from '../../src/audits/segment-rule.js';
import { validateFilter } from '../../src/audits/url-table.service.js';
import { createDomainRuntime, type DomainRuntime } from '../../schema/domain-runtime.js';
import { buildServer } from '../../facades/server.js';
import { gql, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type Org, type Project } from '../factories.js';
import { prepareBenchDatabase, removeRedisKeys } from './bench-database.js';
import { dropDatabase, fmt, intFromEnv, median } from './sql-bench-kit.js';

/**
 * Issue 61 (every registered sort and filter served by an index or a stored column): `npm run bench -- url-table-sorts`
 * seeds a project with two COMPLETED audits of the same URLs (the URL history filled by their completions), lab
 * vitals on 1% of the pages, one check on a third of them and 50 segments of 20 conditions each, at 20,000 and
 * 100,000 pages (BENCH_SORTS_SIZES), then times the first page (50 rows) of the URL table sorted on each sortable
 * field, both directions, through POST /graphql in-process, and one filter per field. Each figure is the median of
 * BENCH_SORTS_RUNS (3) after one warm-up read; the segments' members are written first, as at the audit's completion
 * (timed). BENCH_SORTS_FIELDS=a,b times only those fields.
 */

const DATABASE_PREFIX = 'seo_audit_bench_sorts';
const DEFAULT_DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${DATABASE_PREFIX}`;
const BENCH_RATE_LIMIT = 1_000_000;

const log = (line: string) => process.stderr.write(`[bench:url-table-sorts] ${line}\n`);

const TABLE = `query($p: ID!, $a: ID!, $sort: UrlTableSortInput, $filter: UrlTableFilterInput, $columns: [String!]) {
  audit(projectId: $p, auditId: $a) {
    urlTable(first: 50, columns: $columns, sort: $sort, filter: $filter) { rows { url values } totalCount } } }`;

/** The pages of one audit, written as the worker leaves them (details, counts), by generate_series. */
const INSERT_PAGES = `INSERT INTO audit_page (audit_id, url, final_url, status_code, depth, title, meta_description,
    indexable, word_count, response_time_ms, bytes, inlinks, outlinks, kind, details)
  SELECT $1, $2 || '/p/' || i, $2 || '/p/' || i, CASE WHEN i % 50 = 0 THEN 404 ELSE 200 END, i % 7,
    'Title ' || (i * 7919 % 100000), repeat('d', 50 + i % 120), i % 9 <> 0, i * 37 % 2000, 100 + i % 300,
    1000 + i, i % 30, i % 20, CASE WHEN i % 50 = 0 THEN 'ERROR' ELSE 'HTML' END,
    jsonb_build_object('contentType', 'text/html', 'lang', CASE WHEN i % 2 = 0 THEN 'en' ELSE 'de' END,
      'h1', jsonb_build_array('Heading ' || i % 1000), 'robotsMeta', CASE WHEN i % 9 = 0 THEN '["noindex"]'::jsonb
      ELSE '[]'::jsonb END, 'xRobotsTag', '[]'::jsonb, 'hreflang', '[]'::jsonb,
      'structuredData', CASE WHEN i % 4 = 1 THEN '["Product"]'::jsonb ELSE '[]'::jsonb END,
      'resources', '[]'::jsonb, 'redirects', '[]'::jsonb, 'robotsTxt', 'allowed')
  FROM generate_series(0, $3::int - 1) i`;

interface Seeded {
  org: Org;
  project: Project;
  auditId: string;
  pages: number;
  membersMs: number;
}

async function seed(t: TestApp, runtime: DomainRuntime, pages: number): Promise<Seeded> {
  const origin = `https://sorts-${randomBytes(3).toString('hex')}.example.com`;
  const org = await anOrg(t, { plan: 'ENTERPRISE' });
  const project = await aProject({ org, url: origin });
  const q = (sql: string, params: unknown[] = []) => runtime.pool.query(sql, params);
  const db = runtime.orm.em as unknown as NativeDb;
  const results = new AuditResultsRepository();
  const ids: string[] = [];
  for (const daysAgo of [2, 1]) {
    const audit = await anAudit({ project, pages, maxPages: pages, createdAt: new Date(Date.now() - daysAgo * 864e5) });
    await q(INSERT_PAGES, [audit.id, origin, pages]);
    ids.push(audit.id);
  }
  const auditId = ids[1];
  // One check on a third of the pages; lab vitals on 1%.
  const issueId = newId();
  await q(
    `INSERT INTO audit_issue (id, audit_id, code, title, severity, category, description, affected_pages,
       applicable_pages) VALUES ($1, $2, 'META_TITLE_TOO_SHORT', 'Title too short', 'WARNING', 'META', '', 0, 0)`,
    [issueId, auditId],
  );
  await q(
    `INSERT INTO issue_occurrence (audit_id, code, url) SELECT $1, 'META_TITLE_TOO_SHORT', url FROM audit_page
     WHERE audit_id = $1 AND id % 3 = 0`,
    [auditId],
  );
  await q(
    `INSERT INTO technical_snapshot (id, project_id, audit_id, url, measured_at, device, source, lcp_ms, cls, tbt_ms,
       fcp_ms, ttfb_ms, performance_score)
     SELECT gen_random_uuid(), $2, $1, url, now(), 'MOBILE', 'LAB', 1000 + id % 3000, (id % 30) / 100.0, id % 500,
       800 + id % 900, 100 + id % 400, id % 100 FROM audit_page WHERE audit_id = $1 AND id % 100 = 0`,
    [auditId, project.id],
  );
  for (const id of ids)
    await nativeTransaction(db, async (tx) => {
      await results.storePageCounts(tx, id);
      await results.mergeUrlHistory(tx, id);
    });
  // 50 segments of 20 conditions (the limits): an OR of URL and title conditions, as saved filters.
  for (let k = 0; k < MAX_SEGMENTS_PER_PROJECT; k++) {
    const conditions = Array.from({ length: MAX_SEGMENT_CONDITIONS }, (_, c) =>
      c % 2
        ? { field: 'url', operator: 'contains', value: `/p/${k}${c}` }
        : { field: 'title', operator: 'contains', value: `Title ${k * 20 + c}` },
    );
    await q(`INSERT INTO segment (id, project_id, name, kind, filter) VALUES ($1, $2, $3, 'FILTER', $4::jsonb)`, [
      newId(),
      project.id,
      `Segment ${String(k).padStart(2, '0')}`,
      JSON.stringify({ combinator: 'OR', groups: [{ combinator: 'OR', conditions }] }),
    ]);
  }
  await q('ANALYZE audit_page, issue_occurrence, technical_snapshot, url_history');
  // The segments' members, as the worker writes them when the audit completes.
  const started = performance.now();
  const rows = await new SegmentRepository().list(db, project.id);
  const rules = rows.map((row) => ({ row, rule: validateFilter(segmentFilterInput(row), false)! }));
  const kept = await new SegmentMembership().keep(db, { id: auditId, completed: true }, rules);
  const membersMs = performance.now() - started;
  log(`${pages} pages: ${kept.size} segments' members written in ${fmt(membersMs)} ms`);
  return { org, project, auditId, pages, membersMs };
}

/** A filter on the field that keeps some rows (its type's usual operator). */
function filterOf(field: (typeof URL_TABLE_FIELDS)[number]): Record<string, unknown> {
  const cond =
    field.key === 'segment'
      ? { field: 'segment', operator: 'contains', value: 'Segment 1' }
      : field.type === 'number'
        ? { field: field.key, operator: 'gt', value: '10' }
        : field.type === 'bool'
          ? { field: field.key, operator: 'eq', value: 'true' }
          : field.type === 'enum'
            ? { field: field.key, operator: 'is_not_empty' }
            : { field: field.key, operator: 'contains', value: '1' };
  return { groups: [{ conditions: [cond] }] };
}

export async function runUrlTableSortsBench(): Promise<{ ok: boolean }> {
  const runs = intFromEnv('BENCH_SORTS_RUNS', 3);
  const sizes = (process.env.BENCH_SORTS_SIZES ?? '20000,100000').split(',').map(Number);
  const databaseUrl = process.env.BENCH_SORTS_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: `bench-sorts-${randomBytes(5).toString('hex')}`,
    LOG_LEVEL: 'silent',
    BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString('hex'),
  });
  const cleanups: (() => Promise<unknown>)[] = [];
  const figures: Record<string, Record<string, { asc: number; desc: number; filter: number; error?: string }>> = {};
  const membersMs: Record<string, number> = {};
  let ok = true;
  try {
    await dropDatabase(databaseUrl);
    cleanups.push(() => dropDatabase(databaseUrl));
    await prepareBenchDatabase(databaseUrl);
    const runtime = await createDomainRuntime(config, createLogger({ level: 'silent', name: 'bench' }));
    cleanups.push(() => runtime.close());
    cleanups.push(() => removeRedisKeys(runtime.redis, `${config.REDIS_PREFIX}:*`));
    runtime.rateLimitFor = (principal) => ({ bucket: `bench:${principal.organizationId}`, limit: BENCH_RATE_LIMIT });
    const app: FastifyInstance = await buildServer(runtime);
    cleanups.push(() => app.close());
    await app.ready();
    const t: TestApp = { app, runtime, config, logs: [], queries: [], close: async () => undefined };
    for (const size of sizes) {
      const started = performance.now();
      const seeded = await seed(t, runtime, size);
      log(`${size} pages seeded in ${fmt(performance.now() - started)} ms`);
      const read = async (vars: Record<string, unknown>): Promise<{ ms: number; error?: string }> => {
        const t0 = performance.now();
        const res = await gql(
          t,
          TABLE,
          { p: seeded.project.id, a: seeded.auditId, ...vars },
          { cookie: seeded.org.owner.cookie },
        );
        const ms = performance.now() - t0;
        const errors = res.body.errors as { message: string }[] | undefined;
        return errors ? { ms, error: errors[0].message } : { ms };
      };
      const timed = async (vars: Record<string, unknown>) => {
        const first = await read(vars);
        if (first.error) return { ms: first.ms, error: first.error };
        const samples: number[] = [];
        for (let i = 0; i < runs; i++) samples.push((await read(vars)).ms);
        return { ms: median(samples), firstMs: first.ms };
      };
      const bySize: (typeof figures)[string] = {};
      const only = process.env.BENCH_SORTS_FIELDS?.split(',');
      for (const field of URL_TABLE_FIELDS.filter((f) => f.sortable && (!only || only.includes(f.key)))) {
        const columns = ['url', field.key];
        const asc = await timed({ columns, sort: { field: field.key, direction: 'ASC' } });
        const desc = await timed({ columns, sort: { field: field.key, direction: 'DESC' } });
        const filter = field.filterable ? await timed({ columns, filter: filterOf(field) }) : { ms: 0 };
        const error = asc.error ?? desc.error ?? ('error' in filter ? filter.error : undefined);
        if (error) ok = false;
        bySize[field.key] = { asc: asc.ms, desc: desc.ms, filter: filter.ms, ...(error ? { error } : {}) };
        log(
          `${size} ${field.key}: asc ${fmt(asc.ms)} ms, desc ${fmt(desc.ms)} ms, filter ${fmt(filter.ms)} ms` +
            `${'firstMs' in asc && asc.firstMs !== undefined ? ` (first read ${fmt(asc.firstMs)} ms)` : ''}` +
            `${error ? ` ERROR ${error}` : ''}`,
        );
      }
      figures[String(size)] = bySize;
      membersMs[String(size)] = seeded.membersMs;
    }
    const keys = Object.keys(figures[String(sizes[0])]);
    const lines = [
      `URL table, first page of 50 rows per sort (median of ${runs}; 1-min load ${loadavg()[0].toFixed(2)}); ` +
        `50 segments' members written in ${sizes.map((s) => `${fmt(membersMs[String(s)])} ms (${s})`).join(', ')}`,
      `| field | ${sizes.map((s) => `${s} asc / desc / filter (ms)`).join(' | ')} |`,
      `|---|${sizes.map(() => '---').join('|')}|`,
      ...keys.map(
        (k) =>
          `| ${k} | ${sizes
            .map((s) => {
              const f = figures[String(s)][k];
              return f.error ? `error: ${f.error}` : `${fmt(f.asc)} / ${fmt(f.desc)} / ${fmt(f.filter)}`;
            })
            .join(' | ')} |`,
      ),
    ];
    process.stdout.write(
      `${lines.join('\n')}\n${JSON.stringify({ bench: 'url-table-sorts', ok, membersMs, figures })}\n`,
    );
    return { ok };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
