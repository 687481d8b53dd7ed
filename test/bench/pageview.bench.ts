import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import type { NativeDb } from '../../src/platform/db/native-query.js';
import { AuditPagesRepository } from '../../src/audits/audit-pages.repository.js';
import { createDomainRuntime, type DomainRuntime } from '../../schema/domain-runtime.js';
import { buildServer } from '../../facades/server.js';
import { gql, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject } from '../factories.js';
import { prepareBenchDatabase, removeRedisKeys } from './bench-database.js';
import { percentile } from './bench-report.js';
import { runCannibalisationReads } from './cannibalisation-reads.js';
import {
  captureStatements,
  dropDatabase,
  fmt,
  intFromEnv,
  measureInterleaved,
  median,
  pairedRatio,
  type Measurement,
  type Statement,
} from './sql-bench-kit.js';

/**
 * Issue 26's quality bar: "the page view with 500 inlinks answers in < 100 ms on a 20,000-page audit".
 *
 * One COMPLETED audit of 20,000 HTML pages and its link graph (~600,000 audit_link rows written in crawl order,
 * grouped by source page): every page links to 10 hub pages (home and sections, 20,000 inlinks each) and to 20
 * neighbours; one page has exactly 500 inlinks, spread over the whole table. Measured in one run, interleaved:
 *
 * (a) the page view of the 500-inlink page through POST /graphql in-process (Fastify inject, session cookie): the
 *     full page view document with `inlinks(first: 100, after)`, 5 requests following the cursors (their sum);
 * (b) a hub's page view, first page of 100 inlinks (totalCount 20,000) and its last page (the cursor found by
 *     walking every page once; the walk is timed too);
 * (c) at SQL level, our read (AuditPagesRepository.listLinks: keyset on the link id over (audit_id, target_url,
 *     id), rows and count in parallel) against the naive ones on the same table: OFFSET pagination, and the same
 *     statements without the (audit_id, target_url, id) index (dropped in a transaction that is rolled back);
 * (d) first, keyword cannibalisation on another project of the same database: 1,000 keywords x 90 days of SERP
 *     snapshots (cannibalisation-reads.ts; goal p95 < 150 ms).
 *
 * The database is the bench's own (BENCH_PAGEVIEW_DATABASE_URL, default seo_audit_bench_pageview): created and
 * migrated at the start, dropped at the end. Autovacuum is off on the two tables so that the state measured does
 * not change under the run: first "ANALYZE only", what a fresh audit in a large shared table is (its rows not yet
 * all-visible, so index-only scans visit the heap), then again after VACUUM (visibility map set).
 * Timings are reported, never asserted; the bench fails only when an answer is wrong.
 *
 * `npm run bench -- pageview` (~2-3 min, ~10 s of it seeding); BENCH_PAGEVIEW_RUNS (50), BENCH_PAGEVIEW_WARMUP (5)
 * and BENCH_PAGEVIEW_PAGES (20,000) change the run.
 */

const HUBS = 10;
const NEIGHBOURS = 20;
const TARGET_INLINKS = 500;
const PAGE_SIZE = 100;
const GOAL_MS = 100;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/seo_audit_bench_pageview';
const DATABASE_PREFIX = 'seo_audit_bench_pageview';
const TARGET_INDEX = 'audit_link_target_idx';
/** Sessions on /graphql have a per-user budget; the bench keeps the real Redis hit and raises only the limit. */
const BENCH_RATE_LIMIT = 1_000_000_000;

const log = (line: string) => process.stderr.write(`[bench:pageview] ${line}\n`);

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`pageview bench: ${message}`);
}

// ---- The generated site, as SQL expressions of a page index (0: home, 1..9: sections, then articles) ----

const WORDS = (
  'garden kitchen travel mountain river city coffee bicycle camera window library museum history science ' +
  'nature guide review tutorial summary overview ranking visitor market product'
).split(' ');
const SECTIONS = ['guides', 'reviews', 'travel', 'kitchen', 'garden', 'science', 'history', 'news', 'about'];
const sqlArray = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x}'`).join(',')}]::text[]`;
const word = (i: string, salt: number) => `(${sqlArray(WORDS)})[1 + (${i} * ${salt}) % ${WORDS.length}]`;
const section = (i: string) => `(${sqlArray(SECTIONS)})[${i}]`;
/** $2 is the site's origin. */
const urlSql = (i: string) =>
  `CASE WHEN ${i} = 0 THEN $2::text || '/' WHEN ${i} < ${HUBS} THEN $2::text || '/section/' || ${section(i)} ` +
  `ELSE $2::text || '/articles/' || ${i} || '-' || ${word(i, 7)} || '-' || ${word(i, 13)} || '-' || ` +
  `${word(i, 31)} END`;
const headingSql = (i: string) =>
  `CASE WHEN ${i} = 0 THEN 'Home' WHEN ${i} < ${HUBS} THEN initcap(${section(i)}) ` +
  `ELSE initcap(${word(i, 7)} || ' ' || ${word(i, 13)} || ' ' || ${word(i, 31)} || ' ' || ${word(i, 5)}) ` +
  `|| ' (' || ${i} || ')' END`;

interface SiteShape {
  pages: number;
  /** The page with exactly TARGET_INLINKS inlinks. */
  target: number;
  /** The pages that link to the target besides its 20 neighbours, spread over the site. */
  related: number[];
}

function siteShape(pages: number): SiteShape {
  const articles = pages - HUBS;
  const target = HUBS + Math.floor(articles / 2);
  // Page s links to its neighbours HUBS + (s - HUBS + k) % articles, k = 1..20: the target's are target-20..target-1.
  const extra = TARGET_INLINKS - NEIGHBOURS;
  const stride = Math.floor((articles - 1) / (extra + 2));
  const related: number[] = [];
  for (let s = HUBS + 1; related.length < extra && s < pages; s += stride) {
    if (s < target - NEIGHBOURS || s > target) related.push(s);
  }
  check(related.length === extra, `cannot spread ${extra} related links over ${pages} pages`);
  return { pages, target, related };
}

/**
 * Links in crawl order (grouped by source page): 10 nav links (every page, itself included when it is a hub), 20
 * neighbours (hubs link to the first articles), and one related link to the target from the pages in `related`.
 */
const INSERT_LINKS = (shape: SiteShape) => `
  INSERT INTO audit_link (audit_id, source_url, target_url, anchor, rel, internal)
  SELECT $1::uuid, ${urlSql('s')}, ${urlSql('l.t')}, l.anchor, l.rel, true
  FROM generate_series(0, ${shape.pages - 1}) s
  CROSS JOIN LATERAL (
    SELECT k AS t, ${headingSql('k')} AS anchor, NULL::text AS rel FROM generate_series(0, ${HUBS - 1}) k
    UNION ALL
    SELECT n.t, ${headingSql('n.t')}, CASE WHEN n.k % 10 = 0 THEN 'noopener' END
    FROM (SELECT k, CASE WHEN s < ${HUBS} THEN ${HUBS} + s * ${NEIGHBOURS} + k - 1
                    ELSE ${HUBS} + (s - ${HUBS} + k) % ${shape.pages - HUBS} END AS t
          FROM generate_series(1, ${NEIGHBOURS}) k) n
    UNION ALL
    SELECT ${shape.target}, 'Related: ' || ${headingSql(String(shape.target))}, NULL WHERE s = ANY($3::int[])
  ) l`;

const INSERT_PAGES = (shape: SiteShape) => `
  INSERT INTO audit_page (audit_id, url, final_url, status_code, kind, depth, title, meta_description, canonical,
    indexable, word_count, response_time_ms, bytes, content_hash, inlinks, outlinks, error, details)
  SELECT $1::uuid, u.url, u.url, 200, 'HTML', CASE WHEN i = 0 THEN 0 WHEN i < ${HUBS} THEN 1 ELSE 2 + i % 4 END,
    u.heading || ' | Bench Site', 'Read about ' || u.heading || ' on Bench Site: guides, reviews and more.', u.url,
    true, 400 + (i * 37) % 1200, 60 + (i * 13) % 400, 9000 + (i * 101) % 9000, md5(i::text),
    coalesce(ci.n, 0), coalesce(co.n, 0), NULL,
    jsonb_build_object('contentType', 'text/html; charset=utf-8', 'lang', 'en', 'robotsTxt', 'allowed',
      'h1', jsonb_build_array(u.heading), 'structuredData', jsonb_build_array('Article'),
      'resources', jsonb_build_array(jsonb_build_object('url', $2::text || '/static/site.css', 'kind', 'stylesheet'),
        jsonb_build_object('url', $2::text || '/img/' || i % 300 || '.png', 'kind', 'image')))
  FROM generate_series(0, ${shape.pages - 1}) i
  CROSS JOIN LATERAL (SELECT ${urlSql('i')} AS url, ${headingSql('i')} AS heading) u
  LEFT JOIN (SELECT target_url, count(DISTINCT source_url)::int AS n FROM audit_link WHERE audit_id = $1
    AND source_url <> target_url GROUP BY target_url) ci ON ci.target_url = u.url
  LEFT JOIN (SELECT source_url, count(DISTINCT target_url)::int AS n FROM audit_link WHERE audit_id = $1
    GROUP BY source_url) co ON co.source_url = u.url`;

// ---- The naive reads (baselines), written like AuditPagesRepository.listLinks but for the paging ----

const OWNED = `EXISTS (SELECT 1 FROM audit a JOIN project pr ON pr.id = a.project_id WHERE a.id = $1
  AND pr.organization_id = $2)`;
const OFFSET_ROWS = `SELECT l.id::text AS id, l.source_url AS "sourceUrl", l.target_url AS "targetUrl", l.anchor, l.rel,
    l.internal, o.status_code AS "otherStatus", o.title AS "otherTitle", (o.id IS NOT NULL) AS "otherCrawled"
  FROM audit_link l LEFT JOIN audit_page o ON o.audit_id = l.audit_id AND o.url = l.source_url
  WHERE l.audit_id = $1 AND l.target_url = $3 AND ${OWNED}
  ORDER BY l.id OFFSET $4::int LIMIT ${PAGE_SIZE + 1}`;
const COUNT = `SELECT count(*)::int AS total FROM audit_link l
  WHERE l.audit_id = $1 AND l.target_url = $3 AND ${OWNED}`;

// ---- GraphQL: the page view document (what the web app's AuditPageView asks, with inlinks) ----

const PAGE_VIEW = `query PageView($p: ID!, $a: ID, $u: String!, $after: String) {
  audit(projectId: $p, auditId: $a) { id status page(url: $u) {
    id url finalUrl kind statusCode redirects { url status } contentType depth title titleLength metaDescription
    metaDescriptionLength h1 wordCount lang hreflang { lang url } structuredDataTypes indexable nonIndexableReason
    canonical robotsMeta xRobotsTag robotsTxt responseTimeMs bytes bodyCapped resources { url kind }
    vitals { measuredAt device source lcpMs cls inpMs tbtMs fcpMs ttfbMs performanceScore }
    inlinkCount outlinkCount error
    issues { id issueId code title severity category howToFix details { kind facts { label value { text url } } } }
    inlinks(first: ${PAGE_SIZE}, after: $after) { totalCount pageInfo { hasNextPage endCursor }
      nodes { id sourceUrl targetUrl anchor rel internal otherStatus otherTitle otherCrawled } }
  } } }`;

interface LinksPage {
  ids: string[];
  totalCount: number;
  hasNext: boolean;
  endCursor: string | null;
}

interface Ctx {
  t: TestApp;
  runtime: DomainRuntime;
  db: NativeDb;
  repo: AuditPagesRepository;
  cookie: string;
  organizationId: string;
  projectId: string;
  auditId: string;
  targetUrl: string;
  hubUrl: string;
  /** Link ids of the hub's inlinks, in order (found by the walk). */
  hubIds: string[];
  /** The cursor of the hub's last page (endCursor of the one before). */
  hubLastCursor: string | null;
  errors: string[];
}

async function pageView(ctx: Ctx, url: string, after: string | null): Promise<LinksPage> {
  const { status, body } = await gql(
    ctx.t,
    PAGE_VIEW,
    { p: ctx.projectId, a: ctx.auditId, u: url, after },
    { cookie: ctx.cookie },
  );
  if (status !== 200 || body.errors || !body.data) {
    const message = `POST /graphql answered ${status}: ${JSON.stringify(body.errors)}`;
    ctx.errors.push(message);
    throw new Error(message);
  }
  const inlinks = body.data.audit.page.inlinks;
  return {
    ids: inlinks.nodes.map((n: { id: string }) => n.id),
    totalCount: inlinks.totalCount,
    hasNext: inlinks.pageInfo.hasNextPage,
    endCursor: inlinks.pageInfo.endCursor,
  };
}

/** (a): the five requests of the 500-inlink page view, following the cursors. */
async function pageViewAll(ctx: Ctx, url: string, pages: number): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let i = 0; i < pages; i++) {
    const page = await pageView(ctx, url, after);
    ids.push(...page.ids);
    after = page.endCursor;
  }
  return ids;
}

/** Ours at SQL level: the repository's statements (rows and count in parallel), keyset on the link id. */
async function repoAll(ctx: Ctx, url: string, pages: number, after: string | null = null): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < pages; i++) {
    const { rows } = await ctx.repo.listLinks(ctx.db, {
      auditId: ctx.auditId,
      organizationId: ctx.organizationId,
      url,
      direction: 'IN',
      position: null,
      first: PAGE_SIZE,
      after,
    });
    const page = rows.slice(0, PAGE_SIZE);
    ids.push(...page.map((r) => r.id));
    after = page.at(-1)?.id ?? null;
  }
  return ids;
}

/** Baseline: OFFSET pagination over the same table (rows and count in parallel, like ours). */
async function offsetAll(ctx: Ctx, url: string, pages: number, firstOffset = 0): Promise<string[]> {
  const ids: string[] = [];
  const params = [ctx.auditId, ctx.organizationId, url];
  for (let i = 0; i < pages; i++) {
    const [rows] = await Promise.all([
      ctx.runtime.pool.query<{ id: string }>(OFFSET_ROWS, [...params, firstOffset + i * PAGE_SIZE]),
      ctx.runtime.pool.query(COUNT, params),
    ]);
    ids.push(...rows.rows.slice(0, PAGE_SIZE).map((r) => r.id));
  }
  return ids;
}

/** The statements the repository sends, captured from the platform pool (for the no-index baseline and EXPLAIN). */
interface LinkStatements {
  first: { rows: Statement; count: Statement };
  next: { rows: Statement; count: Statement };
}

async function linkStatements(ctx: Ctx): Promise<LinkStatements> {
  const split = (statements: Statement[]) => {
    const rows = statements.find((s) => /\bFROM audit_link l LEFT JOIN\b/.test(s.text));
    const count = statements.find((s) => /count\(\*\)/.test(s.text) && /\baudit_link\b/.test(s.text));
    check(rows && count, `unexpected statements from listLinks: ${statements.map((s) => s.text).join(' | ')}`);
    return { rows, count };
  };
  const first = split(await captureStatements(ctx.runtime.pool, () => repoAll(ctx, ctx.targetUrl, 1)));
  const firstPageEnd = (await repoAll(ctx, ctx.targetUrl, 1)).at(-1)!;
  const next = split(await captureStatements(ctx.runtime.pool, () => repoAll(ctx, ctx.targetUrl, 1, firstPageEnd)));
  check(next.rows.values.length === 4, 'the keyset statement takes the cursor as $4');
  return { first, next };
}

/**
 * Baseline: the repository's own statements without the (audit_id, target_url, id) index: dropped in a transaction
 * that is rolled back, so the planner does what it would without it (the other indexes stay). One connection, rows
 * then count; only the statements are timed (returned), not the DDL.
 */
async function withoutTargetIndex(
  ctx: Ctx,
  statements: LinkStatements,
  url: string,
  pages: number,
): Promise<{ ids: string[]; ms: number }> {
  const client = await ctx.runtime.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`DROP INDEX ${TARGET_INDEX}`);
    const ids: string[] = [];
    const started = performance.now();
    let after: string | null = null;
    for (let i = 0; i < pages; i++) {
      const base = [ctx.auditId, ctx.organizationId, url];
      const rowsStatement: Statement = after === null ? statements.first.rows : statements.next.rows;
      const rows: pg.QueryResult<{ id: string }> = await client.query<{ id: string }>(
        rowsStatement.text,
        after === null ? base : [...base, after],
      );
      await client.query(statements.first.count.text, base);
      const page = rows.rows.slice(0, PAGE_SIZE);
      ids.push(...page.map((r) => r.id));
      after = page.at(-1)?.id ?? null;
    }
    const ms = performance.now() - started;
    return { ids, ms };
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

// ---- Measurement ----

// ---- EXPLAIN ----

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  'Rows Removed by Filter'?: number;
  'Subplan Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Actual Total Time': number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

interface ExplainSummary {
  lines: string[];
  /** How audit_link is read: the scan nodes on it or its indexes. */
  access: string;
  targetIndexRangeScan: boolean;
  executionMs: number;
}

/** EXPLAIN (ANALYZE, BUFFERS) as an indented tree of node types; the statement's values shown as $n again. */
async function explain(pool: pg.Pool, statement: Statement): Promise<ExplainSummary> {
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`,
    statement.values,
  );
  const [{ Plan: plan, 'Execution Time': executionMs }] = rows[0]['QUERY PLAN'];
  const params = (text: string) =>
    statement.values.reduce<string>((out, v, i) => out.replaceAll(`'${String(v)}'`, `$${i + 1}`), text);
  const lines: string[] = [];
  const access: string[] = [];
  let targetIndexRangeScan = false;
  const walk = (node: PlanNode, depth: number) => {
    const pad = '  '.repeat(depth);
    const on = node['Relation Name'] ? ` on ${node['Relation Name']} ${node.Alias ?? ''}`.trimEnd() : '';
    const using = node['Index Name'] ? ` using ${node['Index Name']}` : '';
    const sub = node['Subplan Name'] ? ` [${node['Subplan Name']}]` : '';
    const heap = node['Heap Fetches'] === undefined ? '' : `, heap fetches ${node['Heap Fetches']}`;
    lines.push(
      `${pad}${node['Node Type']}${using}${on}${sub} (rows ${node['Actual Rows']} x ` +
        `${node['Actual Loops']} loops, ${node['Actual Total Time'].toFixed(3)} ms, buffers hit ` +
        `${node['Shared Hit Blocks']} read ${node['Shared Read Blocks']}${heap})`,
    );
    if (node['Index Cond']) lines.push(`${pad}  Index Cond: ${params(node['Index Cond'])}`);
    if (node.Filter) {
      lines.push(`${pad}  Filter: ${params(node.Filter)} (rows removed ${node['Rows Removed by Filter'] ?? 0})`);
    }
    const onLinks = node['Relation Name'] === 'audit_link' || node['Index Name']?.startsWith('audit_link');
    if (onLinks && /Scan/.test(node['Node Type'])) {
      const removed = node['Rows Removed by Filter'] ? `, ${node['Rows Removed by Filter']} rows filtered out` : '';
      access.push(`${node['Node Type']}${using} (${node['Actual Rows']} rows${removed})`);
    }
    if (
      node['Index Name'] === TARGET_INDEX &&
      /Index (Only )?Scan/.test(node['Node Type']) &&
      /target_url =/.test(node['Index Cond'] ?? '')
    )
      targetIndexRangeScan = true;
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(plan, 0);
  lines.push(`Execution Time: ${executionMs.toFixed(3)} ms`);
  return { lines, access: access.join(' + '), targetIndexRangeScan, executionMs };
}

// ---- Setup ----

interface Seeded {
  ctx: Ctx;
  shape: SiteShape;
  links: number;
  pages: number;
  timings: { step: string; ms: number }[];
}

async function seed(t: TestApp, runtime: DomainRuntime, shape: SiteShape): Promise<Seeded> {
  const timings: { step: string; ms: number }[] = [];
  const step = async <T>(name: string, use: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await use();
    timings.push({ step: name, ms: performance.now() - started });
    return result;
  };
  const origin = `https://pageview-${randomBytes(3).toString('hex')}.example.com`;
  const pageUrl = async (i: number) => {
    const { rows } = await runtime.pool.query<{ url: string }>(`SELECT ${urlSql('$1::int')} AS url`, [i, origin]);
    return rows[0].url;
  };
  const targetUrl = await pageUrl(shape.target);
  const hubUrl = await pageUrl(1);
  const { org, project, audit } = await step('organization, project, audit row and issues', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const project = await aProject({ org, url: origin });
    const audit = await anAudit({
      project,
      pages: shape.pages,
      maxPages: shape.pages,
      issues: [
        { code: 'META_TITLE_TOO_SHORT', occurrences: [targetUrl, hubUrl] },
        { code: 'META_DESCRIPTION_MISSING', occurrences: [targetUrl] },
        { code: 'META_TITLE_TOO_LONG', occurrences: [hubUrl] },
      ],
    });
    return { org, project, audit };
  });
  const q = (sql: string, params: unknown[] = []) => runtime.pool.query(sql, params);
  // Stable state for the whole run: autovacuum would set the visibility map at some moment of it.
  await q('ALTER TABLE audit_link SET (autovacuum_enabled = off)');
  await q('ALTER TABLE audit_page SET (autovacuum_enabled = off)');
  const links = await step('audit_link: INSERT ... SELECT generate_series', async () => {
    const res = await q(INSERT_LINKS(shape), [audit.id, origin, shape.related]);
    return res.rowCount ?? 0;
  });
  const pages = await step('audit_page: INSERT ... SELECT generate_series (inlinks/outlinks counted)', async () => {
    const res = await q(INSERT_PAGES(shape), [audit.id, origin]);
    return res.rowCount ?? 0;
  });
  await step('ANALYZE audit_link, audit_page', () => q('ANALYZE audit_link, audit_page'));
  const ctx: Ctx = {
    t,
    runtime,
    db: runtime.orm.em as unknown as NativeDb,
    repo: new AuditPagesRepository(),
    cookie: org.owner.cookie,
    organizationId: org.id,
    projectId: project.id,
    auditId: audit.id,
    targetUrl,
    hubUrl,
    hubIds: [],
    hubLastCursor: null,
    errors: [],
  };
  return { ctx, shape, links, pages, timings };
}

/** The answers every number below depends on: same links, in the same order, whatever the path. */
async function verify(ctx: Ctx, seeded: Seeded, statements: LinkStatements): Promise<void> {
  const { shape } = seeded;
  const counts = await ctx.runtime.pool.query<{ target: number; hub: number; hubs: number; total: number }>(
    `SELECT count(*) FILTER (WHERE target_url = $2)::int AS target, count(*) FILTER (WHERE target_url = $3)::int AS hub,
       count(DISTINCT target_url) FILTER (WHERE target_url IN (SELECT target_url FROM audit_link WHERE audit_id = $1
         GROUP BY target_url HAVING count(*) = $4))::int AS hubs, count(*)::int AS total
     FROM audit_link WHERE audit_id = $1`,
    [ctx.auditId, ctx.targetUrl, ctx.hubUrl, shape.pages],
  );
  const c = counts.rows[0];
  check(c.target === TARGET_INLINKS, `the target page has ${c.target} inlinks, not ${TARGET_INLINKS}`);
  check(c.hub === shape.pages && c.hubs === HUBS, `hubs: ${c.hubs} pages with ${shape.pages} inlinks (hub ${c.hub})`);
  check(c.total === seeded.links, 'link count');

  const pages = TARGET_INLINKS / PAGE_SIZE;
  const first = await pageView(ctx, ctx.targetUrl, null);
  check(first.totalCount === TARGET_INLINKS, `inlinks.totalCount ${first.totalCount}`);
  const viaGraphql = await pageViewAll(ctx, ctx.targetUrl, pages);
  const viaRepo = await repoAll(ctx, ctx.targetUrl, pages);
  const viaOffset = await offsetAll(ctx, ctx.targetUrl, pages);
  const viaNoIndex = await withoutTargetIndex(ctx, statements, ctx.targetUrl, pages);
  const expected = await ctx.runtime.pool.query<{ id: string }>(
    // Ordered by the column l.id: a bare `id` would name the output column, the text.
    'SELECT l.id::text AS id FROM audit_link l WHERE l.audit_id = $1 AND l.target_url = $2 ORDER BY l.id',
    [ctx.auditId, ctx.targetUrl],
  );
  const want = expected.rows.map((r) => r.id);
  const same = (ids: string[], what: string) => {
    const at = want.findIndex((id, i) => ids[i] !== id);
    check(
      ids.length === want.length && at === -1,
      `${what}: ${ids.length} inlinks, expected ${want.length}; first difference at ${at}: ${ids[at]} for ${want[at]}`,
    );
  };
  same(viaGraphql, 'GraphQL');
  same(viaRepo, 'AuditPagesRepository.listLinks');
  same(viaOffset, 'OFFSET');
  same(viaNoIndex.ids, `without ${TARGET_INDEX}`);
}

/** (b): walks every page of the hub's inlinks once through GraphQL; keeps the last page's cursor. */
async function walkHub(ctx: Ctx, expectedTotal: number): Promise<{ ms: number; requests: number; perMs: number[] }> {
  const ids: string[] = [];
  const perMs: number[] = [];
  let after: string | null = null;
  let lastCursor: string | null = null;
  const started = performance.now();
  for (;;) {
    const t0 = performance.now();
    const page = await pageView(ctx, ctx.hubUrl, after);
    perMs.push(performance.now() - t0);
    check(page.totalCount === expectedTotal, `hub totalCount ${page.totalCount}`);
    ids.push(...page.ids);
    if (!page.hasNext) break;
    lastCursor = after = page.endCursor;
  }
  const ms = performance.now() - started;
  check(ids.length === expectedTotal && new Set(ids).size === expectedTotal, `the walk saw ${ids.length} links`);
  ctx.hubIds = ids;
  ctx.hubLastCursor = lastCursor;
  return { ms, requests: perMs.length, perMs };
}

interface PhaseResult {
  phase: string;
  labels: Map<string, string>;
  samples: Map<string, number[]>;
  walk: { ms: number; requests: number; perMs: number[] };
  explains: { label: string; summary: ExplainSummary }[];
}

async function runPhase(
  phase: string,
  ctx: Ctx,
  statements: LinkStatements,
  settings: { runs: number; warmup: number },
): Promise<PhaseResult> {
  const pages = TARGET_INLINKS / PAGE_SIZE;
  log(`${phase}: walking the hub's inlinks through GraphQL`);
  const hubTotal = (
    await ctx.runtime.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_link WHERE audit_id = $1 AND target_url = $2',
      [ctx.auditId, ctx.hubUrl],
    )
  ).rows[0].n;
  const walk = await walkHub(ctx, hubTotal);
  const lastOffset = ctx.hubIds.length - (ctx.hubIds.length % PAGE_SIZE || PAGE_SIZE);
  const lastAfterId = ctx.hubIds[lastOffset - 1];
  const lastIds = ctx.hubIds.slice(lastOffset).join(',');
  const expectLast = (ids: string[], what: string) => {
    if (ids.join(',') !== lastIds) {
      ctx.errors.push(`${what}: the hub's last page differs`);
      throw new Error(`${what}: the hub's last page differs`);
    }
  };

  const measurements: Measurement[] = [
    {
      name: 'gql-500',
      label: `(a) page view of the ${TARGET_INLINKS}-inlink page: ${pages} GraphQL requests x ${PAGE_SIZE} (sum)`,
      run: async () => void (await pageViewAll(ctx, ctx.targetUrl, pages)),
    },
    {
      name: 'sql-500-keyset',
      label: `    ours, SQL only: listLinks keyset, ${pages} pages x ${PAGE_SIZE} (rows + count)`,
      run: async () => void (await repoAll(ctx, ctx.targetUrl, pages)),
    },
    {
      name: 'sql-500-offset',
      label: `(c) baseline: OFFSET n LIMIT ${PAGE_SIZE + 1}, ${pages} pages (rows + count)`,
      run: async () => void (await offsetAll(ctx, ctx.targetUrl, pages)),
    },
    {
      name: 'sql-500-noindex',
      label: `(c) baseline: listLinks' statements without ${TARGET_INDEX}, ${pages} pages`,
      run: async () => (await withoutTargetIndex(ctx, statements, ctx.targetUrl, pages)).ms,
    },
    {
      name: 'gql-hub-first',
      label: `(b) hub page view (${hubTotal.toLocaleString('en-US')} inlinks), first page of ${PAGE_SIZE}`,
      run: async () => void (await pageView(ctx, ctx.hubUrl, null)),
    },
    {
      name: 'gql-hub-last',
      label: `(b) hub page view, last page (deep cursor, after link ${lastOffset.toLocaleString('en-US')})`,
      run: async () => expectLast((await pageView(ctx, ctx.hubUrl, ctx.hubLastCursor)).ids, 'GraphQL'),
    },
    {
      name: 'sql-hub-last-keyset',
      label: '    ours, SQL only: listLinks keyset, hub last page (rows + count)',
      run: async () => expectLast(await repoAll(ctx, ctx.hubUrl, 1, lastAfterId), 'keyset'),
    },
    {
      name: 'sql-hub-last-offset',
      label: `    baseline: OFFSET ${lastOffset.toLocaleString('en-US')} LIMIT ${PAGE_SIZE + 1}, hub last page`,
      run: async () => expectLast(await offsetAll(ctx, ctx.hubUrl, 1, lastOffset), 'OFFSET'),
    },
  ];
  log(
    `${phase}: ${measurements.length} measurements x (${settings.warmup} warm-up + ${settings.runs} runs), ` +
      'interleaved',
  );
  const samples = await measureInterleaved(measurements, settings.runs, settings.warmup, log);
  const labels = new Map(measurements.map((m) => [m.name, m.label]));

  const base = [ctx.auditId, ctx.organizationId];
  const explains = [
    {
      label: `inlinks rows, ${TARGET_INLINKS}-inlink page, first page`,
      summary: await explain(ctx.runtime.pool, { ...statements.first.rows, values: [...base, ctx.targetUrl] }),
    },
    {
      label: `inlinks rows, ${TARGET_INLINKS}-inlink page, page ${pages} (keyset cursor)`,
      summary: await explain(ctx.runtime.pool, {
        ...statements.next.rows,
        values: [...base, ctx.targetUrl, (await repoAll(ctx, ctx.targetUrl, pages - 1)).at(-1)],
      }),
    },
    {
      label: `inlinks count, ${TARGET_INLINKS}-inlink page`,
      summary: await explain(ctx.runtime.pool, { ...statements.first.count, values: [...base, ctx.targetUrl] }),
    },
    {
      label: 'inlinks rows, hub, last page (keyset cursor)',
      summary: await explain(ctx.runtime.pool, { ...statements.next.rows, values: [...base, ctx.hubUrl, lastAfterId] }),
    },
    {
      label: `inlinks count, hub (${hubTotal.toLocaleString('en-US')})`,
      summary: await explain(ctx.runtime.pool, { ...statements.first.count, values: [...base, ctx.hubUrl] }),
    },
  ];
  return { phase, labels, samples, walk, explains };
}

// ---- Report ----

function phaseReport(result: PhaseResult, runs: number): { lines: string[]; json: Record<string, unknown> } {
  const { labels } = result;
  const names = [...labels.keys()];
  const s = (name: string) => result.samples.get(name)!;
  const widths = Math.max(...names.map((n) => labels.get(n)!.length));
  const lines = [
    `${'measurement'.padEnd(widths)}  ${'median ms'.padStart(9)}  ${'p95 ms'.padStart(8)}  ${'min ms'.padStart(8)}`,
    `${'-'.repeat(widths)}  ${'-'.repeat(9)}  ${'-'.repeat(8)}  ${'-'.repeat(8)}`,
  ];
  for (const name of names) {
    const xs = s(name);
    lines.push(
      `${labels.get(name)!.padEnd(widths)}  ${fmt(median(xs)).padStart(9)}  ${fmt(percentile(xs, 95)).padStart(8)}  ` +
        `${fmt(Math.min(...xs)).padStart(8)}`,
    );
  }
  const ratios = [
    ['listLinks keyset / OFFSET, 500 inlinks in 5 pages', 'sql-500-keyset', 'sql-500-offset'],
    [`listLinks keyset / without ${TARGET_INDEX}, 500 inlinks in 5 pages`, 'sql-500-keyset', 'sql-500-noindex'],
    ['listLinks keyset / OFFSET, hub last page', 'sql-hub-last-keyset', 'sql-hub-last-offset'],
    ['GraphQL hub last page / GraphQL hub first page (deep cursor cost)', 'gql-hub-last', 'gql-hub-first'],
  ] as const;
  lines.push('', `ratios (median of the ${runs} per-round ratios; < 1: ours faster), and of the medians:`);
  const ratioJson: Record<string, number> = {};
  for (const [label, ours, baseline] of ratios) {
    const paired = pairedRatio(s(ours), s(baseline));
    const ofMedians = median(s(ours)) / median(s(baseline));
    ratioJson[`${ours}/${baseline}`] = Number(paired.toFixed(4));
    lines.push(`  ${label.padEnd(72)} ${paired.toFixed(3)}  (${ofMedians.toFixed(3)})`);
  }
  const walk = result.walk;
  lines.push(
    '',
    `hub cursor walk (GraphQL, once): ${walk.requests} requests in ${fmt(walk.ms)} ms, ` +
      `median ${fmt(median(walk.perMs))} ms, first ${fmt(walk.perMs[0])} ms, last ${fmt(walk.perMs.at(-1)!)} ms`,
  );
  const a = s('gql-500');
  const meets = median(a) < GOAL_MS;
  lines.push(
    '',
    `goal (a) < ${GOAL_MS} ms: median ${fmt(median(a))} ms, p95 ${fmt(percentile(a, 95))} ms: ` +
      `${meets ? 'MEETS GOAL' : 'MISSES GOAL'}${percentile(a, 95) < GOAL_MS ? ' (p95 too)' : ' (p95 does not)'}`,
  );
  lines.push('', 'EXPLAIN (ANALYZE, BUFFERS) of the statements AuditPagesRepository.listLinks sends:');
  for (const { label, summary } of result.explains) {
    const proof = summary.targetIndexRangeScan
      ? `range scan on ${TARGET_INDEX} (audit_id, target_url, id): yes`
      : `no range scan on ${TARGET_INDEX}`;
    lines.push(`  ${label}: ${proof}; audit_link read by ${summary.access}`);
    lines.push(...summary.lines.map((l) => `    ${l}`));
  }
  const json: Record<string, unknown> = {
    phase: result.phase,
    meetsGoal: meets,
    results: Object.fromEntries(
      names.map((n) => [
        n,
        {
          medianMs: Number(median(s(n)).toFixed(3)),
          p95Ms: Number(percentile(s(n), 95).toFixed(3)),
          minMs: Number(Math.min(...s(n)).toFixed(3)),
        },
      ]),
    ),
    ratios: ratioJson,
    hubWalk: { requests: walk.requests, ms: Number(walk.ms.toFixed(1)) },
    indexRangeScan: Object.fromEntries(result.explains.map((e) => [e.label, e.summary.targetIndexRangeScan])),
  };
  return { lines, json };
}

export async function runPageviewBench(): Promise<{ ok: boolean }> {
  const settings = {
    runs: intFromEnv('BENCH_PAGEVIEW_RUNS', 50),
    warmup: intFromEnv('BENCH_PAGEVIEW_WARMUP', 5, 0),
    pages: intFromEnv('BENCH_PAGEVIEW_PAGES', 20_000, 2_000),
  };
  const databaseUrl = process.env.BENCH_PAGEVIEW_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const databaseName = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  check(
    databaseName.startsWith(DATABASE_PREFIX),
    `BENCH_PAGEVIEW_DATABASE_URL must name a database ${DATABASE_PREFIX}*: the bench creates and drops it`,
  );
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: `bench-pageview-${randomBytes(5).toString('hex')}`,
    LOG_LEVEL: 'silent',
    BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString('hex'),
  });
  const shape = siteShape(settings.pages);

  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const started = performance.now();
    log(`database ${databaseName}: dropping a leftover, creating and migrating`);
    await dropDatabase(databaseUrl);
    cleanups.push(async () => {
      await dropDatabase(databaseUrl);
      log(`database ${databaseName} dropped`);
    });
    await prepareBenchDatabase(databaseUrl);
    const databaseMs = performance.now() - started;

    const runtime = await createDomainRuntime(config, createLogger({ level: 'silent', name: 'bench' }));
    cleanups.push(() => runtime.close());
    cleanups.push(() => removeRedisKeys(runtime.redis, `${config.REDIS_PREFIX}:*`));
    runtime.rateLimitFor = (principal) => ({ bucket: `bench:${principal.organizationId}`, limit: BENCH_RATE_LIMIT });
    const app: FastifyInstance = await buildServer(runtime);
    cleanups.push(() => app.close());
    await app.ready();
    const t: TestApp = { app, runtime, config, logs: [], queries: [], close: async () => undefined };

    // Another read on the same database, first (its figures printed at once): keyword cannibalisation over a 90-day
    // rank history of another project.
    const cannibalisationLoad = loadavg()[0];
    const cannibalisation = await runCannibalisationReads(t, settings, log);
    process.stdout.write(
      `${[
        ...cannibalisation.lines,
        `1-min load average ${cannibalisationLoad.toFixed(2)} before, ` + `${loadavg()[0].toFixed(2)} after`,
        '',
      ].join('\n')}\n`,
    );

    log(`seeding ${shape.pages.toLocaleString('en-US')} pages and their link graph`);
    const seedStarted = performance.now();
    const seeded = await seed(t, runtime, shape);
    const seedMs = performance.now() - seedStarted;
    const { ctx } = seeded;
    log(
      `seeded in ${fmt(seedMs)} ms: ${seeded.pages} pages, ${seeded.links} links ` +
        `(${seeded.timings.map((x) => `${x.step} ${fmt(x.ms)} ms`).join('; ')})`,
    );
    const sizes = await runtime.pool.query<{ rel: string; size: string }>(
      `SELECT relname AS rel, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class
       WHERE relname IN ('audit_link', 'audit_page', '${TARGET_INDEX}') ORDER BY relname`,
    );

    const statements = await linkStatements(ctx);
    await verify(ctx, seeded, statements);
    log('answers verified: the same 500 inlinks in the same order through GraphQL, listLinks, OFFSET, no index');

    const loadBefore = loadavg()[0];
    const analyzed = await runPhase('ANALYZE only', ctx, statements, settings);
    log('VACUUM audit_link, audit_page (sets the visibility map)');
    const vacuumStarted = performance.now();
    await runtime.pool.query('VACUUM (ANALYZE) audit_link, audit_page');
    const vacuumMs = performance.now() - vacuumStarted;
    const vacuumed = await runPhase('after VACUUM', ctx, statements, settings);
    const loadAfter = loadavg()[0];
    check(ctx.errors.length === 0, ctx.errors.join('; '));

    const first = phaseReport(analyzed, settings.runs);
    const second = phaseReport(vacuumed, settings.runs);
    const out = [
      '',
      `pageview benchmark (issue 26): page view with ${TARGET_INLINKS} inlinks on a ` +
        `${shape.pages.toLocaleString('en-US')}-page audit, goal < ${GOAL_MS} ms`,
      `seeded: 1 COMPLETED audit, ${seeded.pages.toLocaleString('en-US')} audit_page rows (kind HTML, titles), ` +
        `${seeded.links.toLocaleString('en-US')} audit_link rows in crawl order (${HUBS} nav + ${NEIGHBOURS} ` +
        `neighbour links per page; ${HUBS} hubs with ${shape.pages.toLocaleString('en-US')} inlinks; page ` +
        `#${shape.target} with ${TARGET_INLINKS})`,
      `seeding took ${fmt(seedMs)} ms (${seeded.timings.map((x) => `${x.step}: ${fmt(x.ms)} ms`).join('; ')}); ` +
        `database create + migrations ${fmt(databaseMs)} ms; sizes ` +
        sizes.rows.map((r) => `${r.rel} ${r.size}`).join(', '),
      `${settings.runs} runs after ${settings.warmup} warm-up rounds, every measurement once per round in an order ` +
        'rotated each round; GraphQL in-process (Fastify inject, session cookie, real rate-limit hit in Redis)',
      `each GraphQL request is the full page view document with inlinks(first: ${PAGE_SIZE}, after); the SQL-level ` +
        'lines run the statements on the platform pool (rows and count in parallel, as the repository does; the ' +
        'no-index baseline: one connection, in order)',
      `node ${process.version}, NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}, tsx; machine: ${cpus().length} ` +
        `CPUs, 1-min load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
      '',
      `== phase 1: ANALYZE only (a fresh audit: its rows not yet all-visible; autovacuum off on both tables) ==`,
      ...first.lines,
      '',
      `== phase 2: after VACUUM (ANALYZE) (${fmt(vacuumMs)} ms; visibility map set) ==`,
      ...second.lines,
      '',
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'pageview',
        goalMs: GOAL_MS,
        pages: seeded.pages,
        links: seeded.links,
        targetInlinks: TARGET_INLINKS,
        hubInlinks: shape.pages,
        seedMs: Math.round(seedMs),
        seedSteps: seeded.timings.map((x) => ({ step: x.step, ms: Math.round(x.ms) })),
        settings,
        meetsGoal: first.json.meetsGoal,
        phases: [first.json, second.json],
        cannibalisation: cannibalisation.json,
        loadAverage: {
          before: Number(loadBefore.toFixed(2)),
          after: Number(loadAfter.toFixed(2)),
          cpus: cpus().length,
        },
      })}\n`,
    );
    return { ok: true };
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((err: unknown) => log(`cleanup failed: ${String(err)}`));
  }
}
