import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { loadConfig } from '../../src/platform/config.js';
import { createLogger } from '../../src/platform/logger.js';
import type { NativeDb } from '../../src/platform/db/native-query.js';
import { CHECK_CATALOG, getCheck } from '../../src/seo/checks/check-catalog.js';
import { CHECK_PREREQUISITES } from '../../src/seo/checks/check-prerequisites.js';
import { ComparisonRepository, type AuditPair } from '../../src/comparison/comparison.repository.js';
import { createDomainRuntime, type DomainRuntime } from '../../schema/domain-runtime.js';
import { buildServer } from '../../facades/server.js';
import { gql, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject } from '../factories.js';
import { prepareBenchDatabase, removeRedisKeys } from './bench-database.js';
import { percentile } from './bench-report.js';
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
 * The audit comparison's bench: "`npm run bench -- compare` on two generated audits of 10,000 pages × 20
 * occurrences reports the time; goal < 1 s."
 *
 * One project with two COMPLETED audits (base a week old, head a day old) of 10,000 audit_page rows and 200,000
 * issue_occurrence rows each (20 per page over 40 catalog codes), and a third audit of another organization's project
 * with as many rows in the same tables (so that only the (audit_id, ...) indexes keep the two audits' reads small).
 * The head differs from the base by planted rules whose counts the bench computes from the rules alone
 * (`planted()`): every surviving page drops one base occurrence and gains another (on a base code, or on one of 4
 * codes the base never had), 1 page in 100 loses a code no head page has, 1 page in 100 loses an element (its title):
 * "title too short" vanishes and "missing title" appears, 1 page in 100 is removed and as many are added, 1 in 200
 * answers 404 (and is no longer indexable) and 1 in 200 more turns noindex. So every category of the comparison has
 * occurrences (docs/settings-and-comparison.md): FIXED (a dropped occurrence on a page still there, answering and
 * indexable), GONE (every occurrence of a removed page, the dropped one of a 404 or noindex page), NOT_CHECKED (the
 * title's length on a page that lost its title), NEW, PERSISTING; NEWLY_CHECKED stays 0 (both audits ran the same
 * checks: a settings change would also make the score deltas not comparable, which this bench does not measure).
 * Measured in one run, interleaved:
 *
 * (a) ours through POST /graphql in-process (Fastify inject, session cookie): the comparison page's document on
 *     open (base and head left to the defaults; scores, totals, codes, the first 50 new and fixed occurrences, the
 *     first 50 changed URLs); median and p95 against the goal;
 * (b) ours at SQL level: ComparisonRepository.codeChanges and pageChangeTotals in parallel (what `totals` runs),
 *     and codeChanges alone;
 * (c) baseline, the JavaScript way: both audits' (code, url) and (url, status_code, indexable) rows and check settings
 *     loaded into the process, compared with Sets and sorted into the six categories by the documented rules: the
 *     same totals and per-code counts as (b); it is also the reference the answers are checked against;
 * (d) the full ISSUES CSV through GraphQL, pieces of 5,000 followed to the end (total time);
 * (e) one deep keyset page: issues(change: PERSISTING, first: 50, after: a cursor 50 rows before the end).
 *
 * The database is the bench's own (BENCH_COMPARE_DATABASE_URL, default seo_audit_bench_compare): created and migrated
 * at the start, dropped at the end. Autovacuum is off on the seeded tables, so the state measured does not change
 * under the run: first "ANALYZE only" (a fresh audit: its rows not yet all-visible, so index-only scans visit the
 * heap), then again after VACUUM (visibility map set). Timings are reported, never asserted; the bench fails only
 * when an answer is wrong (throws).
 *
 * `npm run bench -- compare`; BENCH_COMPARE_RUNS (20), BENCH_COMPARE_WARMUP (3) and BENCH_COMPARE_PAGES (10,000;
 * a multiple of 200) change the run; BENCH_COMPARE_KEEP_DATABASE=1 keeps the database afterwards, to EXPLAIN by hand
 * (the next run drops it).
 */

const PER_PAGE = 20;
const BASE_CODES = 40;
const NEW_CODES = 4;
const PAGE_SIZE = 50;
const CSV_PIECE = 5_000;
const GOAL_MS = 1_000;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/seo_audit_bench_compare';
const DATABASE_PREFIX = 'seo_audit_bench_compare';
const COMPARISON_INDEX = 'issue_occurrence_audit_code_url_idx';
/** Sessions on /graphql have a per-user budget; the bench keeps the real Redis hit and raises only the limit. */
const BENCH_RATE_LIMIT = 1_000_000_000;
const SEEDED_TABLES = ['issue_occurrence', 'audit_page', 'audit_issue'];

const log = (line: string) => process.stderr.write(`[bench:compare] ${line}\n`);

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`compare bench: ${message}`);
}

// ---- The codes: real catalog codes, spread over the categories ----

interface Codes {
  /** The 40 codes both audits use. */
  base: string[];
  /** Codes only the head has (some of its new occurrences). */
  added: string[];
  /** A code only the base has: every occurrence fixed, its title from the base's issue row. */
  baseOnly: string;
  /** A check that judges an element (the title's length) and the check that finds the element missing. */
  dependent: string;
  prerequisite: string;
}

/** The planted lost element: the docs' example (docs/settings-and-comparison.md, NOT_CHECKED). */
const DEPENDENT = 'META_TITLE_TOO_SHORT';
const PREREQUISITE = 'META_TITLE_MISSING';

function pickCodes(): Codes {
  check(
    CHECK_PREREQUISITES[DEPENDENT] === PREREQUISITE,
    `${DEPENDENT} no longer needs ${PREREQUISITE}: plant another lost element`,
  );
  // No code that needs or is another's element: the dropped and replaced occurrences stay plain FIXED and NEW. No
  // site fact either: it is compared once per site, not URL by URL.
  const elements = new Set([...Object.keys(CHECK_PREREQUISITES), ...Object.values(CHECK_PREREQUISITES)]);
  const page = CHECK_CATALOG.filter((c) => c.scope === 'page' && !c.siteFact && !elements.has(c.code)).map(
    (c) => c.code as string,
  );
  check(page.length >= BASE_CODES + NEW_CODES + 1, `the catalog has ${page.length} page codes`);
  const added = page.slice(-NEW_CODES);
  const baseOnly = page[page.length - NEW_CODES - 1];
  const rest = page.slice(0, page.length - NEW_CODES - 1);
  const base = Array.from({ length: BASE_CODES }, (_, j) => rest[Math.floor((j * rest.length) / BASE_CODES)]);
  check(new Set(base).size === BASE_CODES, 'the 40 base codes are distinct');
  return { base, added, baseOnly, dependent: DEPENDENT, prerequisite: PREREQUISITE };
}

// ---- The planted differences, as rules on a page index i (0..pages-1) and a slot k (0..19) ----
// SQL below and planted() are the same rules written twice: the SQL writes rows, planted() counts them.

const removedPage = (i: number) => i % 100 === 7;
/** Pages whose slot (i % 20 + 10) % 20 holds the base-only code in the base (never the dropped slot, i % 20). */
const baseOnlyPage = (i: number) => i % 100 === 50;
/** Pages whose slot (i % 20 + 5) % 20 holds the dependent code in the base and its prerequisite in the head. */
const lostElementPage = (i: number) => i % 100 === 30;
const statusChangedPage = (i: number) => i % 200 === 13;
const noindexPage = (i: number) => i % 200 === 113;
/** Pages whose replacement occurrence is on a code the base never had, and which of those codes. */
const addedCodePage = (i: number) => i % 5 === 0;
const addedCodeOf = (i: number) => Math.floor(i / 20) % NEW_CODES;

interface Expected {
  newIssues: number;
  fixedIssues: number;
  goneIssues: number;
  notCheckedIssues: number;
  newlyCheckedIssues: number;
  persistingIssues: number;
  added: number;
  removed: number;
  statusChanged: number;
  indexabilityChanged: number;
  /** URLs with any page change (the pages list's totalCount). */
  changedUrls: number;
  /** New occurrences per head-only code; fixed ones of the base-only code; the lost element's two codes. */
  perAddedCode: Map<string, number>;
  baseOnlyFixed: number;
  dependentNotChecked: number;
  prerequisiteNew: number;
  rows: { base: number; head: number };
}

function planted(pages: number, codes: Codes): Expected {
  const e: Expected = {
    newIssues: 0,
    fixedIssues: 0,
    goneIssues: 0,
    notCheckedIssues: 0,
    newlyCheckedIssues: 0,
    persistingIssues: 0,
    added: pages / 100,
    removed: 0,
    statusChanged: 0,
    indexabilityChanged: 0,
    changedUrls: 0,
    perAddedCode: new Map(codes.added.map((c) => [c, 0])),
    baseOnlyFixed: 0,
    dependentNotChecked: 0,
    prerequisiteNew: 0,
    rows: { base: pages * PER_PAGE, head: 0 },
  };
  for (let i = 0; i < pages; i++) {
    // A removed page's occurrences went with it: gone, not fixed.
    if (removedPage(i)) {
      e.removed++;
      e.goneIssues += PER_PAGE;
      continue;
    }
    // The dropped slot and its replacement (new). The dropped one is fixed on a page still answering 200 and
    // indexable, gone on a page that answers 404 or turned noindex.
    const pageLeft = statusChangedPage(i) || noindexPage(i);
    if (pageLeft) e.goneIssues++;
    else e.fixedIssues++;
    e.newIssues++;
    // On a base-only page, also the base-only code (fixed: its page is still there) and the code its slot holds in
    // the head (new); on a lost-element page, the dependent code (not checked: nothing left to judge) and the
    // prerequisite in its slot (new).
    const extra = baseOnlyPage(i) || lostElementPage(i) ? 1 : 0;
    e.newIssues += extra;
    e.persistingIssues += PER_PAGE - 1 - extra;
    if (baseOnlyPage(i)) {
      e.fixedIssues++;
      e.baseOnlyFixed++;
    }
    if (lostElementPage(i)) {
      e.notCheckedIssues++;
      e.dependentNotChecked++;
      e.prerequisiteNew++;
    }
    if (addedCodePage(i)) {
      const code = codes.added[addedCodeOf(i)];
      e.perAddedCode.set(code, e.perAddedCode.get(code)! + 1);
    }
    if (statusChangedPage(i)) e.statusChanged++;
    // A 404 page is not indexable either: it changes both.
    if (statusChangedPage(i) || noindexPage(i)) e.indexabilityChanged++;
  }
  e.newIssues += e.added * PER_PAGE;
  e.changedUrls = e.added + e.removed + e.indexabilityChanged;
  e.rows.head = e.persistingIssues + e.newIssues;
  return e;
}

const WORDS = (
  'garden kitchen travel mountain river city coffee bicycle camera window library museum history science ' +
  'nature guide review tutorial summary overview ranking visitor market product'
).split(' ');
const sqlArray = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x}'`).join(',')}]::text[]`;
const word = (i: string, salt: number) => `(${sqlArray(WORDS)})[1 + (${i} * ${salt}) % ${WORDS.length}]`;
/** $2 is the site's origin. URLs of the pages both audits may have, and of the head's added pages. */
const urlSql = (i: string) => `$2::text || '/articles/' || ${i} || '-' || ${word(i, 7)} || '-' || ${word(i, 13)}`;
const addedUrlSql = (j: string) => `$2::text || '/new/' || ${j} || '-' || ${word(j, 11)} || '-' || ${word(j, 3)}`;

type Role = 'base' | 'head' | 'other';

/**
 * One audit's occurrences in crawl order (page by page), 20 per page. $1 audit, $2 origin, $3 the 40 base codes,
 * $4 the head-only codes, $5 the base-only code, $6 pages, $7 the dependent code, $8 its prerequisite. Evidence on a
 * third of them, as real checks leave some.
 */
const INSERT_OCCURRENCES = (role: Role) => {
  const code = (i: string, k: string) => `(c.codes)[1 + (${i} + ${k}) % ${BASE_CODES}]`;
  const evidence = `CASE WHEN k % 3 = 0 THEN jsonb_build_object('value', left(md5(pos::text || k), 8 + k)) END`;
  const pageCode =
    role === 'base'
      ? `CASE WHEN i % 100 = 50 AND k = (i % 20 + 10) % 20 THEN c.base_only ` +
        `WHEN i % 100 = 30 AND k = (i % 20 + 5) % 20 THEN c.dependent ELSE ${code('i', 'k')} END`
      : role === 'head'
        ? `CASE WHEN k = i % 20 THEN CASE WHEN i % 5 = 0 THEN (c.added)[1 + (i / 20) % ${NEW_CODES}] ` +
          `ELSE ${code('i', `(20 + k)`)} END WHEN i % 100 = 30 AND k = (i % 20 + 5) % 20 THEN c.prerequisite ` +
          `ELSE ${code('i', 'k')} END`
        : code('i', 'k');
  const added =
    role === 'head'
      ? `UNION ALL SELECT j * 100 + 60, ${code('j', 'k')}, ${addedUrlSql('j')}, k
         FROM generate_series(0, $6::int / 100 - 1) j CROSS JOIN generate_series(0, ${PER_PAGE - 1}) k CROSS JOIN c`
      : '';
  // Every parameter typed once, whether or not this role's rules use it.
  return `
    WITH c AS (SELECT $3::text[] AS codes, $4::text[] AS added, $5::text AS base_only, $7::text AS dependent,
                      $8::text AS prerequisite)
    INSERT INTO issue_occurrence (audit_id, code, url, evidence)
    SELECT $1::uuid, o.code, o.url, ${evidence}
    FROM (SELECT i AS pos, ${pageCode} AS code, ${urlSql('i')} AS url, k
          FROM generate_series(0, $6::int - 1) i CROSS JOIN generate_series(0, ${PER_PAGE - 1}) k CROSS JOIN c
          ${role === 'head' ? 'WHERE i % 100 <> 7' : ''}
          ${added}) o
    ORDER BY o.pos, o.k`;
};

/** One audit's pages: $1 audit, $2 origin, $3 pages. */
const INSERT_PAGES = (role: Role) => {
  const status = role === 'head' ? 'CASE WHEN i % 200 = 13 THEN 404 ELSE 200 END' : '200';
  const indexable = role === 'head' ? 'NOT (i % 200 IN (13, 113))' : 'true';
  const added =
    role === 'head'
      ? `UNION ALL SELECT j * 100 + 60, ${addedUrlSql('j')}, 200, true FROM generate_series(0, $3::int / 100 - 1) j`
      : '';
  return `
    INSERT INTO audit_page (audit_id, url, final_url, status_code, kind, depth, title, indexable, word_count,
      response_time_ms, bytes, content_hash)
    SELECT $1::uuid, p.url, p.url, p.status, CASE WHEN p.status = 200 THEN 'HTML' ELSE 'ERROR' END, 1 + p.pos % 5,
      CASE WHEN p.status = 200 THEN initcap(replace(split_part(p.url, '/', 5), '-', ' ')) END, p.indexable,
      400 + (p.pos * 37) % 1200, 60 + (p.pos * 13) % 400, 9000 + (p.pos * 101) % 9000, md5(p.url)
    FROM (SELECT i AS pos, ${urlSql('i')} AS url, ${status} AS status, ${indexable} AS indexable
          FROM generate_series(0, $3::int - 1) i ${role === 'head' ? 'WHERE i % 100 <> 7' : ''}
          ${added}) p
    ORDER BY p.pos`;
};

/** An issue row per code present, with the catalog's words and its URL count: $1 audit, $2 the catalog rows. */
const INSERT_ISSUES = `
  INSERT INTO audit_issue (id, audit_id, code, title, severity, category, description, affected_pages,
    applicable_pages)
  SELECT gen_random_uuid(), $1::uuid, o.code, c.title, c.severity, c.category, c.description, o.n,
    (SELECT count(*)::int FROM audit_page WHERE audit_id = $1)
  FROM (SELECT code, count(DISTINCT url)::int AS n FROM issue_occurrence WHERE audit_id = $1 GROUP BY code) o
  JOIN jsonb_to_recordset($2::jsonb) AS c(code text, title text, severity text, category text, description text)
    USING (code)`;

// ---- GraphQL documents ----

const AUDIT_FIELDS = 'id completedAt createdAt pagesCrawled overallScore';
const ISSUE_PAGE = 'totalCount pageInfo { hasNextPage endCursor } nodes { code url change }';
const COMPARED_PAGE = 'statusCode indexable kind title';

/** What the comparison page asks on open (its AuditComparison query and the first page of each list). */
const OPEN = `query ComparisonOpen($p: ID!, $base: ID, $head: ID) {
  auditComparison(projectId: $p, base: $base, head: $head) {
    base { ${AUDIT_FIELDS} } head { ${AUDIT_FIELDS} }
    scores { category before after delta }
    totals { newIssues fixedIssues goneIssues notCheckedIssues newlyCheckedIssues persistingIssues changedUrls added
      removed statusChanged indexabilityChanged }
    codes { code title severity category newUrls fixedUrls goneUrls notCheckedUrls newlyCheckedUrls persistingUrls }
    newOnes: issues(change: NEW, first: ${PAGE_SIZE}) { ${ISSUE_PAGE} }
    fixedOnes: issues(change: FIXED, first: ${PAGE_SIZE}) { ${ISSUE_PAGE} }
    pages(first: ${PAGE_SIZE}) { totalCount pageInfo { hasNextPage endCursor }
      nodes { url changes before { ${COMPARED_PAGE} } after { ${COMPARED_PAGE} } } }
  } }`;

/** The first page of each list (a)'s document does not ask for: checked once, not timed. */
const OTHER_LISTS = `query OtherLists($p: ID!, $base: ID!, $head: ID!) {
  auditComparison(projectId: $p, base: $base, head: $head) {
    goneOnes: issues(change: GONE, first: ${PAGE_SIZE}) { ${ISSUE_PAGE} }
    notCheckedOnes: issues(change: NOT_CHECKED, first: ${PAGE_SIZE}) { ${ISSUE_PAGE} }
    newlyCheckedOnes: issues(change: NEWLY_CHECKED, first: ${PAGE_SIZE}) { ${ISSUE_PAGE} } } }`;

const PERSISTING_PAGE = `query Persisting($p: ID!, $base: ID!, $head: ID!, $after: String) {
  auditComparison(projectId: $p, base: $base, head: $head) {
    issues(change: PERSISTING, first: ${PAGE_SIZE}, after: $after) { ${ISSUE_PAGE} } } }`;

const CSV = `query Csv($p: ID!, $base: ID!, $head: ID!, $after: String) {
  auditComparison(projectId: $p, base: $base, head: $head) {
    csv(rows: ISSUES, after: $after, size: ${CSV_PIECE}) { filename content rows nextCursor } } }`;

interface IssueNode {
  code: string;
  url: string;
  change: string;
}
interface IssuePage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: IssueNode[];
}
interface Totals {
  newIssues: number;
  fixedIssues: number;
  goneIssues: number;
  notCheckedIssues: number;
  newlyCheckedIssues: number;
  persistingIssues: number;
  changedUrls: number;
  added: number;
  removed: number;
  statusChanged: number;
  indexabilityChanged: number;
}
interface CodeCounts {
  newUrls: number;
  fixedUrls: number;
  goneUrls: number;
  notCheckedUrls: number;
  newlyCheckedUrls: number;
  persistingUrls: number;
}
type Change = 'NEW' | 'FIXED' | 'GONE' | 'NOT_CHECKED' | 'NEWLY_CHECKED' | 'PERSISTING';
const CHANGES: readonly Change[] = ['NEW', 'FIXED', 'GONE', 'NOT_CHECKED', 'NEWLY_CHECKED', 'PERSISTING'];
/** Each change's per-code count and total. */
const COUNT: Record<Change, { code: keyof CodeCounts; total: keyof Totals }> = {
  NEW: { code: 'newUrls', total: 'newIssues' },
  FIXED: { code: 'fixedUrls', total: 'fixedIssues' },
  GONE: { code: 'goneUrls', total: 'goneIssues' },
  NOT_CHECKED: { code: 'notCheckedUrls', total: 'notCheckedIssues' },
  NEWLY_CHECKED: { code: 'newlyCheckedUrls', total: 'newlyCheckedIssues' },
  PERSISTING: { code: 'persistingUrls', total: 'persistingIssues' },
};
const noCounts = (): CodeCounts => ({
  newUrls: 0,
  fixedUrls: 0,
  goneUrls: 0,
  notCheckedUrls: 0,
  newlyCheckedUrls: 0,
  persistingUrls: 0,
});
interface OpenAnswer {
  base: { id: string };
  head: { id: string };
  scores: { category: string; before: number | null; after: number | null; delta: number | null }[];
  totals: Totals;
  codes: ({ code: string; title: string; severity: string; category: string } & CodeCounts)[];
  newOnes: IssuePage;
  fixedOnes: IssuePage;
  pages: { totalCount: number; pageInfo: { hasNextPage: boolean }; nodes: { url: string; changes: string[] }[] };
}

interface Ctx {
  t: TestApp;
  runtime: DomainRuntime;
  db: NativeDb;
  repo: ComparisonRepository;
  cookie: string;
  projectId: string;
  pair: AuditPair;
  otherAuditId: string;
  codes: Codes;
  expected: Expected;
  /** The deep page's cursor and the 50 (code, url) it must answer. */
  deep: { cursor: string; want: string[] } | null;
}

async function ask<T>(ctx: Ctx, query: string, variables: Record<string, unknown>): Promise<T> {
  const { status, body } = await gql(ctx.t, query, { p: ctx.projectId, ...variables }, { cookie: ctx.cookie });
  if (status !== 200 || body.errors || !body.data)
    throw new Error(`compare bench: POST /graphql answered ${status}: ${JSON.stringify(body.errors)}`);
  return (body.data as { auditComparison: T }).auditComparison;
}

const totalsOf = (e: Expected): Totals => ({
  newIssues: e.newIssues,
  fixedIssues: e.fixedIssues,
  goneIssues: e.goneIssues,
  notCheckedIssues: e.notCheckedIssues,
  newlyCheckedIssues: e.newlyCheckedIssues,
  persistingIssues: e.persistingIssues,
  changedUrls: e.changedUrls,
  added: e.added,
  removed: e.removed,
  statusChanged: e.statusChanged,
  indexabilityChanged: e.indexabilityChanged,
});

function sameTotals(got: Totals, want: Totals, what: string): void {
  const keys = Object.keys(want) as (keyof Totals)[];
  const wrong = keys.filter((k) => got[k] !== want[k]);
  check(!wrong.length, `${what}: ${wrong.map((k) => `${k} ${got[k]} (expected ${want[k]})`).join(', ')}`);
}

/** (a): the page's document on open; its totals checked every time (cheap, and a wrong answer fails the bench). */
async function openPage(ctx: Ctx): Promise<OpenAnswer> {
  const answer = await ask<OpenAnswer>(ctx, OPEN, { base: null, head: null });
  sameTotals(answer.totals, totalsOf(ctx.expected), 'GraphQL totals');
  return answer;
}

/** (b): what ComparisonService.totals runs, in parallel as it does. */
async function sqlTotals(ctx: Ctx): Promise<Totals> {
  const [codes, pages] = await Promise.all([
    ctx.repo.codeChanges(ctx.db, ctx.pair),
    ctx.repo.pageChangeTotals(ctx.db, ctx.pair),
  ]);
  const sum = (k: keyof CodeCounts) => codes.reduce((n, r) => n + r[k], 0);
  return {
    newIssues: sum('newUrls'),
    fixedIssues: sum('fixedUrls'),
    goneIssues: sum('goneUrls'),
    notCheckedIssues: sum('notCheckedUrls'),
    newlyCheckedIssues: sum('newlyCheckedUrls'),
    persistingIssues: sum('persistingUrls'),
    ...pages,
  };
}

/** The catalog's codes, and what each dependent check needs (the documented rules' inputs, not the repository's). */
const CATALOG_CODES = new Set<string>(CHECK_CATALOG.map((c) => c.code));
const NEEDS = new Map(Object.entries(CHECK_PREREQUISITES));

interface JsAnswer {
  totals: Totals;
  perCode: Map<string, CodeCounts>;
  /** Each change's (code, url) pairs, when asked for (the reference lists), in no particular order. */
  lists: Map<Change, { code: string; url: string }[]> | null;
}

/**
 * (c): the JavaScript way: both audits' occurrences, pages and check settings into the process, compared with Sets
 * and sorted into the six categories by the rules of docs/settings-and-comparison.md, written here apart from the
 * repository's SQL. With `keep`, every (code, url) of each change is kept too (the reference lists).
 */
async function javascriptWay(ctx: Ctx, keep = false): Promise<JsAnswer> {
  const occurrences = (auditId: string) =>
    ctx.runtime.pool.query<{ code: string; url: string }>(
      'SELECT code, url FROM issue_occurrence WHERE audit_id = $1',
      [auditId],
    );
  const pages = (auditId: string) =>
    ctx.runtime.pool.query<{ url: string; status_code: number | null; indexable: boolean }>(
      'SELECT url, status_code, indexable FROM audit_page WHERE audit_id = $1',
      [auditId],
    );
  const settings = ctx.runtime.pool.query<{ id: string; overrides: { code: string; enabled: boolean }[] | null }>(
    `SELECT id, score_breakdown->'overrides' AS overrides FROM audit WHERE id IN ($1, $2)`,
    [ctx.pair.base, ctx.pair.head],
  );
  const [bo, ho, bp, hp, st] = await Promise.all([
    occurrences(ctx.pair.base),
    occurrences(ctx.pair.head),
    pages(ctx.pair.base),
    pages(ctx.pair.head),
    settings,
  ]);
  const off = (id: string) =>
    new Set((st.rows.find((r) => r.id === id)?.overrides ?? []).filter((o) => !o.enabled).map((o) => o.code));
  const baseOff = off(ctx.pair.base);
  const headOff = off(ctx.pair.head);
  const key = (code: string, url: string) => `${code}\n${url}`;
  const split = (k: string) => {
    const at = k.indexOf('\n');
    return { code: k.slice(0, at), url: k.slice(at + 1) };
  };
  const before = new Set(bo.rows.map((r) => key(r.code, r.url)));
  const after = new Set(ho.rows.map((r) => key(r.code, r.url)));
  const basePages = new Map(bp.rows.map((r) => [r.url, r]));
  const headPages = new Map(hp.rows.map((r) => [r.url, r]));
  const perCode = new Map<string, CodeCounts>();
  const lists = keep ? new Map<Change, { code: string; url: string }[]>(CHANGES.map((c) => [c, []])) : null;
  const count = (change: Change, k: string) => {
    const o = split(k);
    let c = perCode.get(o.code);
    if (!c) perCode.set(o.code, (c = noCounts()));
    c[COUNT[change].code]++;
    lists?.get(change)!.push(o);
  };
  for (const k of after) {
    if (before.has(k)) count('PERSISTING', k);
    else count(baseOff.has(split(k).code) ? 'NEWLY_CHECKED' : 'NEW', k);
  }
  for (const k of before) {
    if (after.has(k)) continue;
    const { code, url } = split(k);
    const needs = NEEDS.get(code);
    const b = basePages.get(url);
    const h = headPages.get(url);
    if (headOff.has(code) || !CATALOG_CODES.has(code) || (needs !== undefined && after.has(key(needs, url))))
      count('NOT_CHECKED', k);
    else if (
      (b && !h) ||
      (h && (h.status_code === null || h.status_code >= 400)) ||
      (b?.indexable && h && !h.indexable)
    )
      count('GONE', k);
    else count('FIXED', k);
  }
  const totals: Totals = {
    newIssues: 0,
    fixedIssues: 0,
    goneIssues: 0,
    notCheckedIssues: 0,
    newlyCheckedIssues: 0,
    persistingIssues: 0,
    changedUrls: 0,
    added: 0,
    removed: 0,
    statusChanged: 0,
    indexabilityChanged: 0,
  };
  for (const h of hp.rows) {
    const b = basePages.get(h.url);
    if (!b) totals.added++;
    else {
      const status = b.status_code !== h.status_code;
      const indexability = b.indexable !== h.indexable;
      if (status) totals.statusChanged++;
      if (indexability) totals.indexabilityChanged++;
      if (status || indexability) totals.changedUrls++;
    }
  }
  for (const b of bp.rows) if (!headPages.has(b.url)) totals.removed++;
  totals.changedUrls += totals.added + totals.removed;
  for (const c of perCode.values()) for (const change of CHANGES) totals[COUNT[change].total] += c[COUNT[change].code];
  return { totals, perCode, lists };
}

/** (d): the ISSUES CSV, piece after piece to the end; the rows counted and, when asked, every line kept. */
async function csvAll(ctx: Ctx, keep = false): Promise<{ rows: number; pieces: number; lines: string[] }> {
  let after: string | null = null;
  let rows = 0;
  let pieces = 0;
  const lines: string[] = [];
  do {
    const { csv: piece }: { csv: { content: string; rows: number; nextCursor: string | null } } = await ask(ctx, CSV, {
      base: ctx.pair.base,
      head: ctx.pair.head,
      after,
    });
    rows += piece.rows;
    pieces++;
    if (keep) lines.push(...piece.content.split('\r\n').filter((l) => l !== ''));
    after = piece.nextCursor;
  } while (after);
  const want = totalsOf(ctx.expected);
  const expected = CHANGES.reduce((n, c) => n + want[COUNT[c].total], 0);
  check(rows === expected, `the CSV has ${rows} rows, the six changes' occurrences = ${expected}`);
  return { rows, pieces, lines };
}

/** (e): the persisting occurrences' last page, by a cursor 50 rows before the end. */
async function deepPage(ctx: Ctx): Promise<IssuePage> {
  const deep = ctx.deep!;
  const page = await ask<{ issues: IssuePage }>(ctx, PERSISTING_PAGE, {
    base: ctx.pair.base,
    head: ctx.pair.head,
    after: deep.cursor,
  });
  const got = page.issues.nodes.map((n) => `${n.code} ${n.url}`);
  check(got.join('|') === deep.want.join('|') && !page.issues.pageInfo.hasNextPage, 'the deep page differs');
  return page.issues;
}

// ---- Reference answers, written apart from the repository's statements (EXCEPT / INTERSECT, the JavaScript way) ----

const SET_OF = (audit: string) => `SELECT code, url FROM issue_occurrence WHERE audit_id = ${audit}`;
/** The set operations: what only the head has, what only the base has, what both have. */
const SETS = {
  headOnly: `${SET_OF('$2')} EXCEPT ${SET_OF('$1')}`,
  baseOnly: `${SET_OF('$1')} EXCEPT ${SET_OF('$2')}`,
  both: `${SET_OF('$2')} INTERSECT ${SET_OF('$1')}`,
};

async function reference(ctx: Ctx, set: keyof typeof SETS, offset: number, limit: number) {
  const { rows } = await ctx.runtime.pool.query<{ code: string; url: string }>(
    `SELECT code, url FROM (${SETS[set]}) s ORDER BY code, url OFFSET $3 LIMIT $4`,
    [ctx.pair.base, ctx.pair.head, offset, limit],
  );
  return rows.map((r) => `${r.code} ${r.url}`);
}

async function referenceCount(ctx: Ctx, set: keyof typeof SETS): Promise<number> {
  const { rows } = await ctx.runtime.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${SETS[set]}) s`, [
    ctx.pair.base,
    ctx.pair.head,
  ]);
  return rows[0].n;
}

/** The first `limit` of a list the JavaScript way sorted into one change, in PostgreSQL's order (its collation). */
async function referenceList(ctx: Ctx, pairs: { code: string; url: string }[], limit: number): Promise<string[]> {
  const { rows } = await ctx.runtime.pool.query<{ code: string; url: string }>(
    'SELECT code, url FROM unnest($1::text[], $2::text[]) AS s(code, url) ORDER BY code, url LIMIT $3',
    [pairs.map((p) => p.code), pairs.map((p) => p.url), limit],
  );
  return rows.map((r) => `${r.code} ${r.url}`);
}

async function referenceChangedUrls(ctx: Ctx, limit: number): Promise<string[]> {
  const { rows } = await ctx.runtime.pool.query<{ url: string }>(
    `SELECT url FROM (
       (SELECT url FROM audit_page WHERE audit_id = $2 EXCEPT SELECT url FROM audit_page WHERE audit_id = $1)
       UNION (SELECT url FROM audit_page WHERE audit_id = $1 EXCEPT SELECT url FROM audit_page WHERE audit_id = $2)
       UNION (SELECT b.url FROM audit_page b JOIN audit_page h ON h.url = b.url AND h.audit_id = $2
              WHERE b.audit_id = $1 AND (b.status_code IS DISTINCT FROM h.status_code OR b.indexable <> h.indexable))
     ) s ORDER BY url LIMIT $3`,
    [ctx.pair.base, ctx.pair.head, limit],
  );
  return rows.map((r) => r.url);
}

const SCORES = {
  base: { overall: 71, meta: 64, content: 58, links: 83, technical: 77, performance: null },
  head: { overall: 76, meta: 70, content: 58, links: 79, technical: 81, performance: 90 },
} as const;

/** Everything every figure below depends on: the planted counts, three ways, and the lists' rows. */
async function verify(ctx: Ctx): Promise<{ csvPieces: number }> {
  const want = totalsOf(ctx.expected);
  const [base, head, other] = await Promise.all(
    [ctx.pair.base, ctx.pair.head, ctx.otherAuditId].map(async (id) => {
      const { rows } = await ctx.runtime.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM issue_occurrence WHERE audit_id = $1',
        [id],
      );
      return rows[0].n;
    }),
  );
  check(
    base === ctx.expected.rows.base && head === ctx.expected.rows.head,
    `occurrence rows: base ${base}, head ${head}; planted ${ctx.expected.rows.base}, ${ctx.expected.rows.head}`,
  );
  check(other === ctx.expected.rows.base, `the other project's audit has ${other} occurrence rows`);

  const js = await javascriptWay(ctx, true);
  sameTotals(js.totals, want, 'the JavaScript baseline');
  // The six categories partition the set operations: what only the base has, only the head, both.
  const lists = js.lists!;
  const sizes = (...changes: Change[]) => changes.reduce((n, c) => n + lists.get(c)!.length, 0);
  for (const [set, changes] of [
    ['baseOnly', ['FIXED', 'GONE', 'NOT_CHECKED']],
    ['headOnly', ['NEW', 'NEWLY_CHECKED']],
    ['both', ['PERSISTING']],
  ] as const) {
    const n = await referenceCount(ctx, set);
    const m = sizes(...changes);
    check(n === m, `${set} (EXCEPT/INTERSECT) has ${n} rows, ${changes.join(' + ')} ${m}`);
  }
  sameTotals(await sqlTotals(ctx), want, 'ComparisonRepository.codeChanges + pageChangeTotals');

  const open = await openPage(ctx);
  check(open.base.id === ctx.pair.base && open.head.id === ctx.pair.head, 'the default pair is not base, head');
  const categories = ['overall', 'meta', 'content', 'links', 'technical', 'performance'] as const;
  for (const [i, category] of categories.entries()) {
    const s = open.scores[i];
    const before = SCORES.base[category] ?? null;
    const after = SCORES.head[category] ?? null;
    const delta = before === null || after === null ? null : after - before;
    check(
      s.category === category.toUpperCase() && s.before === before && s.after === after && s.delta === delta,
      `score ${JSON.stringify(s)}, expected ${category} ${before} -> ${after}`,
    );
  }
  // The base codes, the head-only ones, the base-only one, the dependent one and its prerequisite.
  const codesWant = BASE_CODES + NEW_CODES + 3;
  check(open.codes.length === codesWant, `${open.codes.length} codes, expected ${codesWant}`);
  const countsOf = (c: CodeCounts) => CHANGES.map((change) => c[COUNT[change].code]);
  /** Only `change` has occurrences of the code, `n` of them. */
  const only = (c: CodeCounts, change: Change, n: number) =>
    CHANGES.every((x) => c[COUNT[x].code] === (x === change ? n : 0));
  for (const c of open.codes) {
    const j = js.perCode.get(c.code);
    check(
      j && countsOf(j).join('/') === countsOf(c).join('/'),
      `code ${c.code} (${CHANGES.join('/')}): GraphQL ${countsOf(c).join('/')}, ` +
        `JavaScript ${j && countsOf(j).join('/')}`,
    );
    const catalog = getCheck(c.code);
    check(
      c.title === catalog.title && c.severity === catalog.severity && c.category === catalog.category,
      `code ${c.code}: ${c.title} ${c.severity} ${c.category} is not the catalog's`,
    );
    const plantedNew = ctx.expected.perAddedCode.get(c.code);
    if (plantedNew !== undefined) check(only(c, 'NEW', plantedNew), `head-only code ${c.code}`);
    const e = ctx.expected;
    if (c.code === ctx.codes.baseOnly) check(only(c, 'FIXED', e.baseOnlyFixed), `base-only code ${c.code}`);
    if (c.code === ctx.codes.dependent)
      check(only(c, 'NOT_CHECKED', e.dependentNotChecked), `dependent code ${c.code}: ${countsOf(c).join('/')}`);
    if (c.code === ctx.codes.prerequisite)
      check(only(c, 'NEW', e.prerequisiteNew), `prerequisite code ${c.code}: ${countsOf(c).join('/')}`);
  }
  const others = await ask<Record<'goneOnes' | 'notCheckedOnes' | 'newlyCheckedOnes', IssuePage>>(ctx, OTHER_LISTS, {
    base: ctx.pair.base,
    head: ctx.pair.head,
  });
  for (const [list, change] of [
    [open.newOnes, 'NEW'],
    [open.fixedOnes, 'FIXED'],
    [others.goneOnes, 'GONE'],
    [others.notCheckedOnes, 'NOT_CHECKED'],
    [others.newlyCheckedOnes, 'NEWLY_CHECKED'],
  ] as const) {
    const got = list.nodes.map((n) => `${n.code} ${n.url}`);
    const ref = await referenceList(ctx, lists.get(change)!, PAGE_SIZE);
    check(got.join('|') === ref.join('|'), `issues(change: ${change}): first page differs from the JavaScript way`);
    const total = want[COUNT[change].total];
    check(
      list.nodes.every((n) => n.change === change) && list.pageInfo.hasNextPage === total > PAGE_SIZE,
      `issues(change: ${change})`,
    );
    check(list.totalCount === total, `issues(change: ${change}).totalCount ${list.totalCount}, expected ${total}`);
  }
  check(
    open.pages.totalCount === ctx.expected.changedUrls,
    `pages.totalCount ${open.pages.totalCount}, expected ${ctx.expected.changedUrls}`,
  );
  const pageUrls = open.pages.nodes.map((n) => n.url);
  check(pageUrls.join('|') === (await referenceChangedUrls(ctx, PAGE_SIZE)).join('|'), 'pages: first page differs');

  // The deep cursor: an endCursor the API made, its keyset (its last two parts) moved 50 rows before the end. The
  // bench fails here, not silently, if the cursor stops being that shape.
  const first = await ask<{ issues: IssuePage }>(ctx, PERSISTING_PAGE, {
    base: ctx.pair.base,
    head: ctx.pair.head,
    after: null,
  });
  check(first.issues.totalCount === want.persistingIssues, `persisting totalCount ${first.issues.totalCount}`);
  const last = first.issues.nodes.at(-1)!;
  const parts: unknown = JSON.parse(Buffer.from(first.issues.pageInfo.endCursor!, 'base64url').toString('utf8'));
  check(
    Array.isArray(parts) && parts.at(-2) === last.code && parts.at(-1) === last.url,
    `the issues cursor is no longer [...scope, code, url]: ${JSON.stringify(parts)}`,
  );
  const tail = await reference(ctx, 'both', want.persistingIssues - PAGE_SIZE - 1, PAGE_SIZE + 1);
  const [code, url] = [tail[0].slice(0, tail[0].indexOf(' ')), tail[0].slice(tail[0].indexOf(' ') + 1)];
  ctx.deep = {
    cursor: Buffer.from(JSON.stringify([...parts.slice(0, -2), code, url])).toString('base64url'),
    want: tail.slice(1),
  };
  await deepPage(ctx);

  const csv = await csvAll(ctx, true);
  const header = csv.lines.shift()!;
  check(header.replace(/^\uFEFF/, '') === 'change,code,title,severity,category,url', `CSV header ${header}`);
  check(csv.lines.length === csv.rows, `the CSV has ${csv.lines.length} lines for ${csv.rows} rows`);
  const perChange: Record<string, number> = Object.fromEntries(CHANGES.map((c) => [c, 0]));
  const seen = new Set<string>();
  for (const line of csv.lines) {
    const change = line.slice(0, line.indexOf(','));
    perChange[change] = (perChange[change] ?? 0) + 1;
    const rest = line.slice(change.length + 1);
    seen.add(`${change} ${rest.slice(0, rest.indexOf(','))} ${line.slice(line.lastIndexOf(',') + 1)}`);
  }
  check(
    Object.keys(perChange).length === CHANGES.length &&
      CHANGES.every((c) => perChange[c] === want[COUNT[c].total]) &&
      seen.size === csv.rows,
    `CSV rows per change ${JSON.stringify(perChange)}, ${seen.size} distinct of ${csv.rows}`,
  );
  return { csvPieces: csv.pieces };
}

// ---- Statements: captured from the platform pool (what a document sends; EXPLAIN) ----

/** Which repository method sent a statement, from its text. */
function statementKind(text: string): string {
  if (/INSERT INTO comparison_issue_change/.test(text)) return 'digest: issue changes and per-code counts';
  if (/INSERT INTO comparison_page_change/.test(text)) return 'digest: page changes and totals';
  if (/comparison_digest|comparison_page_change|comparison_issue_change/.test(text)) return 'stored digest read';
  if (/FULL JOIN h USING \(code, url\)/.test(text) && /GROUP BY code/.test(text)) return 'codeChanges';
  if (/FROM issue_occurrence o/.test(text) && /EXISTS/.test(text)) return 'issueChanges';
  if (/count\(\*\) FILTER/.test(text) && /audit_page/.test(text)) return 'pageChangeTotals';
  if (/SELECT count\(\*\)::int AS n/.test(text) && /audit_page/.test(text)) return 'pageChangeCount';
  if (/json_build_object/.test(text) && /audit_page/.test(text)) return 'pageChanges';
  if (/completed_at/.test(text) && /FROM audit\b/.test(text)) return 'completedAudits';
  return `other (${text.replace(/\s+/g, ' ').trim().slice(0, 40)}…)`;
}

const countKinds = (statements: Statement[]) => {
  const kinds = new Map<string, number>();
  for (const s of statements) kinds.set(statementKind(s.text), (kinds.get(statementKind(s.text)) ?? 0) + 1);
  return [...kinds.entries()].sort((a, b) => b[1] - a[1]);
};

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Merge Cond'?: string;
  'Hash Cond'?: string;
  'Join Type'?: string;
  Strategy?: string;
  Filter?: string;
  'Rows Removed by Filter'?: number;
  'Actual Rows': number;
  'Actual Loops': number;
  'Actual Total Time': number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  'Temp Written Blocks'?: number;
  'Heap Fetches'?: number;
  'Sort Method'?: string;
  'Sort Space Used'?: number;
  'Sort Space Type'?: string;
  Plans?: PlanNode[];
}

interface ExplainSummary {
  lines: string[];
  /** How the seeded tables are read: the scan nodes on them or their indexes. */
  access: string;
  /** Scans of issue_occurrence through the comparison index, and any other way issue_occurrence is read. */
  comparisonIndexScans: number;
  otherOccurrenceScans: string[];
  executionMs: number;
  jitMs: number | null;
}

async function explain(pool: pg.Pool, statement: Statement): Promise<ExplainSummary> {
  const { rows } = await pool.query<{
    'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number; JIT?: { Timing: { Total: number } } }];
  }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`, statement.values);
  const [{ Plan: plan, 'Execution Time': executionMs, JIT: jit }] = rows[0]['QUERY PLAN'];
  const params = (text: string) =>
    statement.values.reduce<string>(
      (out, v, i) => (v === null ? out : out.replaceAll(`'${String(v)}'`, `$${i + 1}`)),
      text,
    );
  const lines: string[] = [];
  const access: string[] = [];
  const otherOccurrenceScans: string[] = [];
  let comparisonIndexScans = 0;
  const walk = (node: PlanNode, depth: number) => {
    const pad = '  '.repeat(depth);
    const type = node['Join Type'] && /Join|Nested Loop/.test(node['Node Type']) ? ` ${node['Join Type']}` : '';
    const strategy = node.Strategy ? ` (${node.Strategy})` : '';
    const on = node['Relation Name'] ? ` on ${node['Relation Name']} ${node.Alias ?? ''}`.trimEnd() : '';
    const using = node['Index Name'] ? ` using ${node['Index Name']}` : '';
    const heap = node['Heap Fetches'] === undefined ? '' : `, heap fetches ${node['Heap Fetches']}`;
    const temp = node['Temp Written Blocks'] ? `, temp written ${node['Temp Written Blocks']}` : '';
    const sort = node['Sort Method'] ? `, ${node['Sort Method']} ${node['Sort Space Used']} kB` : '';
    lines.push(
      `${pad}${node['Node Type']}${type}${strategy}${using}${on} (rows ${node['Actual Rows']} x ` +
        `${node['Actual Loops']} loops, ${node['Actual Total Time'].toFixed(1)} ms, buffers hit ` +
        `${node['Shared Hit Blocks']} read ${node['Shared Read Blocks']}${heap}${temp}${sort})`,
    );
    for (const key of ['Index Cond', 'Merge Cond', 'Hash Cond'] as const)
      if (node[key]) lines.push(`${pad}  ${key}: ${params(node[key])}`);
    if (node.Filter)
      lines.push(`${pad}  Filter: ${params(node.Filter)} (rows removed ${node['Rows Removed by Filter'] ?? 0})`);
    const table =
      node['Relation Name'] ??
      SEEDED_TABLES.find((t) => node['Index Name']?.startsWith(t) || node['Index Name']?.startsWith(`${t}_`));
    if (table && SEEDED_TABLES.includes(table) && /Scan/.test(node['Node Type'])) {
      access.push(`${node['Node Type']}${using || ` on ${table}`} (${node['Actual Rows']}x${node['Actual Loops']})`);
      if (table === 'issue_occurrence') {
        if (node['Index Name'] === COMPARISON_INDEX) comparisonIndexScans++;
        else otherOccurrenceScans.push(`${node['Node Type']}${using}`);
      }
    }
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(plan, 0);
  const jitMs = jit ? jit.Timing.Total : null;
  lines.push(`Execution Time: ${executionMs.toFixed(1)} ms${jitMs === null ? '' : ` (JIT ${jitMs.toFixed(1)} ms)`}`);
  return { lines, access: access.join(' + '), comparisonIndexScans, otherOccurrenceScans, executionMs, jitMs };
}

/** The repository's statements, captured while it answers, for EXPLAIN. */
async function repositoryStatements(ctx: Ctx): Promise<{ label: string; statement: Statement }[]> {
  const one = async (label: string, use: () => Promise<unknown>) => {
    // A read of the digest first probes that it is stored (ensureDigest: one primary-key lookup, as it is by now):
    // the statement explained is the read itself.
    const captured = (await captureStatements(ctx.runtime.pool, use)).filter(
      (s) => !/^\s*SELECT 1 FROM comparison_digest WHERE base_id = \$1 AND head_id = \$2\s*$/.test(s.text),
    );
    check(captured.length === 1, `${label}: ${captured.length} statements`);
    return { label, statement: captured[0] };
  };
  const deepKey = JSON.parse(Buffer.from(ctx.deep!.cursor, 'base64url').toString('utf8')) as string[];
  return [
    await one('codeChanges (all codes: totals, codes, each list totalCount)', () =>
      ctx.repo.codeChanges(ctx.db, ctx.pair),
    ),
    await one('pageChangeTotals', () => ctx.repo.pageChangeTotals(ctx.db, ctx.pair)),
    await one(`issueChanges NEW, first page (limit ${PAGE_SIZE + 1})`, () =>
      ctx.repo.issueChanges(ctx.db, ctx.pair, 'NEW', { code: null, after: null, limit: PAGE_SIZE + 1 }),
    ),
    await one(`issueChanges PERSISTING, deep keyset page (limit ${PAGE_SIZE + 1})`, () =>
      ctx.repo.issueChanges(ctx.db, ctx.pair, 'PERSISTING', {
        code: null,
        after: { code: deepKey.at(-2)!, url: deepKey.at(-1)! },
        limit: PAGE_SIZE + 1,
      }),
    ),
    await one(`issueChanges PERSISTING, a CSV piece (limit ${CSV_PIECE + 1})`, () =>
      ctx.repo.issueChanges(ctx.db, ctx.pair, 'PERSISTING', { code: null, after: null, limit: CSV_PIECE + 1 }),
    ),
    await one(`pageChanges, first page (limit ${PAGE_SIZE + 1})`, () =>
      ctx.repo.pageChanges(ctx.db, ctx.pair, { changes: [], after: null, limit: PAGE_SIZE + 1 }),
    ),
    await one('pageChangeCount (all changes)', () => ctx.repo.pageChangeCount(ctx.db, ctx.pair, [])),
  ];
}

// ---- Measurement ----

interface PhaseResult {
  phase: string;
  labels: Map<string, string>;
  samples: Map<string, number[]>;
  explains: { label: string; summary: ExplainSummary }[];
}

async function runPhase(
  phase: string,
  ctx: Ctx,
  settings: { runs: number; warmup: number },
  csvPieces: number,
): Promise<PhaseResult> {
  const e = ctx.expected;
  const measurements: Measurement[] = [
    {
      name: 'gql-open',
      label: '(a) comparison page on open: 1 GraphQL document (scores, totals, codes, 2 x 50 issues, 50 pages)',
      run: () => openPage(ctx),
    },
    {
      name: 'sql-totals',
      label: "(b) ours, SQL: codeChanges + pageChangeTotals on the pair's first read (computes and stores its digest)",
      run: async () => {
        // The stored digest is dropped first (untimed): this is what the first read of a pair costs.
        await ctx.t.runtime.pool.query('DELETE FROM comparison_digest WHERE base_id = $1 AND head_id = $2', [
          ctx.pair.base,
          ctx.pair.head,
        ]);
        const started = performance.now();
        sameTotals(await sqlTotals(ctx), totalsOf(e), 'SQL totals');
        return performance.now() - started;
      },
    },
    {
      name: 'sql-codes',
      label: '    ours, SQL: codeChanges + pageChangeTotals again (the stored digest read)',
      run: async () => sameTotals(await sqlTotals(ctx), totalsOf(e), 'SQL totals, stored'),
    },
    {
      name: 'js-sets',
      label: '(c) baseline: both audits (code,url) + pages + settings into JS, Sets, 6 categories: same counts',
      run: async () => sameTotals((await javascriptWay(ctx)).totals, totalsOf(e), 'JavaScript totals'),
    },
    {
      name: 'gql-csv',
      label: `(d) full ISSUES CSV through GraphQL: ${csvPieces} pieces of ${CSV_PIECE.toLocaleString('en-US')} (sum)`,
      run: () => csvAll(ctx),
    },
    {
      name: 'gql-deep',
      label: `(e) issues(change: PERSISTING, first: ${PAGE_SIZE}, after: cursor ${PAGE_SIZE} rows before the end)`,
      run: () => deepPage(ctx),
    },
  ];
  log(
    `${phase}: ${measurements.length} measurements x (${settings.warmup} warm-up + ${settings.runs} runs), ` +
      'interleaved',
  );
  const samples = await measureInterleaved(measurements, settings.runs, settings.warmup, log);
  const labels = new Map(measurements.map((m) => [m.name, m.label]));
  const explains = [];
  for (const { label, statement } of await repositoryStatements(ctx))
    explains.push({ label, summary: await explain(ctx.runtime.pool, statement) });
  return { phase, labels, samples, explains };
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
    ['(b) SQL totals, first read / (c) JavaScript Sets (the same answers)', 'sql-totals', 'js-sets'],
    ['(a) whole GraphQL document / (c) JavaScript Sets (totals only)', 'gql-open', 'js-sets'],
    ['    SQL totals, stored digest / (c) JavaScript Sets', 'sql-codes', 'js-sets'],
    ['(a) whole GraphQL document / (b) SQL totals', 'gql-open', 'sql-totals'],
  ] as const;
  lines.push('', `ratios (median of the ${runs} per-round ratios; < 1: ours faster), and of the medians:`);
  const ratioJson: Record<string, number> = {};
  for (const [label, ours, baseline] of ratios) {
    const paired = pairedRatio(s(ours), s(baseline));
    const ofMedians = median(s(ours)) / median(s(baseline));
    ratioJson[`${ours}/${baseline}`] = Number(paired.toFixed(4));
    lines.push(`  ${label.padEnd(66)} ${paired.toFixed(3)}  (${ofMedians.toFixed(3)})`);
  }
  const a = s('gql-open');
  const meets = median(a) < GOAL_MS;
  lines.push(
    '',
    `goal (a) < ${GOAL_MS} ms: median ${fmt(median(a))} ms, p95 ${fmt(percentile(a, 95))} ms: ` +
      `${meets ? 'MEETS GOAL' : 'MISSES GOAL'}${percentile(a, 95) < GOAL_MS ? ' (p95 too)' : ' (p95 does not)'}`,
  );
  lines.push('', 'EXPLAIN (ANALYZE, BUFFERS) of the statements ComparisonRepository sends:');
  for (const { label, summary } of result.explains) {
    lines.push(`  ${label}: ${summary.executionMs.toFixed(1)} ms; read by ${summary.access}`);
    lines.push(...summary.lines.map((l) => `    ${l}`));
  }
  const code = result.explains[0].summary;
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
    codeChangesPlan: {
      access: code.access,
      comparisonIndexScans: code.comparisonIndexScans,
      otherOccurrenceScans: code.otherOccurrenceScans,
      executionMs: Number(code.executionMs.toFixed(1)),
      jitMs: code.jitMs === null ? null : Number(code.jitMs.toFixed(1)),
    },
    explainMs: Object.fromEntries(result.explains.map((x) => [x.label, Number(x.summary.executionMs.toFixed(1))])),
  };
  return { lines, json };
}

// ---- Setup ----

interface Seeded {
  ctx: Ctx;
  timings: { step: string; ms: number }[];
  rows: { occurrences: number; pages: number; issues: number };
}

async function seed(t: TestApp, runtime: DomainRuntime, pages: number): Promise<Seeded> {
  const timings: { step: string; ms: number }[] = [];
  const step = async <T>(name: string, use: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await use();
    timings.push({ step: name, ms: performance.now() - started });
    return result;
  };
  const codes = pickCodes();
  const catalog = JSON.stringify(
    [...codes.base, ...codes.added, codes.baseOnly, codes.dependent, codes.prerequisite].map((code) => {
      const c = getCheck(code);
      return { code, title: c.title, severity: c.severity, category: c.category, description: c.description };
    }),
  );
  const origin = `https://compare-${randomBytes(3).toString('hex')}.example.com`;
  const otherOrigin = `https://other-${randomBytes(3).toString('hex')}.example.com`;
  const day = 24 * 3600 * 1000;
  const { org, project, base, head, other } = await step('organizations, projects, audit rows', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const project = await aProject({ org, url: origin });
    const base = await anAudit({
      project,
      pages,
      maxPages: pages,
      scores: SCORES.base,
      createdAt: new Date(Date.now() - 8 * day),
    });
    const otherOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const otherProject = await aProject({ org: otherOrg, url: otherOrigin });
    const other = await anAudit({
      project: otherProject,
      pages,
      maxPages: pages,
      createdAt: new Date(Date.now() - 2 * day),
    });
    // As many pages as the base: 1 in 100 removed, as many added.
    const head = await anAudit({
      project,
      pages,
      maxPages: pages,
      scores: SCORES.head,
      createdAt: new Date(Date.now() - day),
    });
    return { org, project, base, head, other };
  });
  const q = (sql: string, params: unknown[] = []) => runtime.pool.query(sql, params);
  // Stable state for the whole run: autovacuum would set the visibility map at some moment of it.
  for (const table of SEEDED_TABLES) await q(`ALTER TABLE ${table} SET (autovacuum_enabled = off)`);
  const rows = { occurrences: 0, pages: 0, issues: 0 };
  // Crawled one after the other, as three audits of a shared table are: base, the other project's, head.
  for (const [role, audit, site] of [
    ['base', base, origin],
    ['other', other, otherOrigin],
    ['head', head, origin],
  ] as const) {
    rows.occurrences += await step(`${role}: issue_occurrence INSERT ... SELECT generate_series`, async () => {
      const res = await q(INSERT_OCCURRENCES(role), [
        audit.id,
        site,
        codes.base,
        codes.added,
        codes.baseOnly,
        pages,
        codes.dependent,
        codes.prerequisite,
      ]);
      return res.rowCount ?? 0;
    });
    rows.pages += await step(`${role}: audit_page`, async () => {
      const res = await q(INSERT_PAGES(role), [audit.id, site, pages]);
      return res.rowCount ?? 0;
    });
    rows.issues += await step(`${role}: audit_issue`, async () => {
      const res = await q(INSERT_ISSUES, [audit.id, catalog]);
      return res.rowCount ?? 0;
    });
  }
  await step(`ANALYZE ${SEEDED_TABLES.join(', ')}`, () => q(`ANALYZE ${SEEDED_TABLES.join(', ')}`));
  const ctx: Ctx = {
    t,
    runtime,
    db: runtime.orm.em as unknown as NativeDb,
    repo: new ComparisonRepository(),
    cookie: org.owner.cookie,
    projectId: project.id,
    pair: { base: base.id, head: head.id },
    otherAuditId: other.id,
    codes,
    expected: planted(pages, codes),
    deep: null,
  };
  return { ctx, timings, rows };
}

export async function runCompareBench(): Promise<{ ok: boolean }> {
  const settings = {
    runs: intFromEnv('BENCH_COMPARE_RUNS', 20),
    warmup: intFromEnv('BENCH_COMPARE_WARMUP', 3, 0),
    pages: intFromEnv('BENCH_COMPARE_PAGES', 10_000, 2_000),
  };
  check(settings.pages % 200 === 0, 'BENCH_COMPARE_PAGES must be a multiple of 200');
  const databaseUrl = process.env.BENCH_COMPARE_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const databaseName = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  check(
    databaseName.startsWith(DATABASE_PREFIX),
    `BENCH_COMPARE_DATABASE_URL must name a database ${DATABASE_PREFIX}*: the bench creates and drops it`,
  );
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: `bench-compare-${randomBytes(5).toString('hex')}`,
    LOG_LEVEL: 'silent',
    BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString('hex'),
  });

  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const started = performance.now();
    log(`database ${databaseName}: dropping a leftover, creating and migrating`);
    await dropDatabase(databaseUrl);
    cleanups.push(async () => {
      if (process.env.BENCH_COMPARE_KEEP_DATABASE === '1') return log(`database ${databaseName} kept`);
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

    log(`seeding 3 audits of ${settings.pages.toLocaleString('en-US')} pages x ${PER_PAGE} occurrences`);
    const seedStarted = performance.now();
    const seeded = await seed(t, runtime, settings.pages);
    const seedMs = performance.now() - seedStarted;
    const { ctx } = seeded;
    log(`seeded in ${fmt(seedMs)} ms (${seeded.timings.map((x) => `${x.step} ${fmt(x.ms)} ms`).join('; ')})`);
    const sizes = await runtime.pool.query<{ rel: string; size: string }>(
      `SELECT relname AS rel, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class
       WHERE relname IN ('issue_occurrence', 'audit_page', '${COMPARISON_INDEX}') ORDER BY relname`,
    );

    const { csvPieces } = await verify(ctx);
    log('answers verified: planted counts = GraphQL = SQL = JavaScript Sets (6 categories); lists, deep page, CSV');
    const document = countKinds(await captureStatements(runtime.pool, () => openPage(ctx)));

    const loadBefore = loadavg()[0];
    const analyzed = await runPhase('ANALYZE only', ctx, settings, csvPieces);
    log(`VACUUM (ANALYZE) ${SEEDED_TABLES.join(', ')} (sets the visibility map)`);
    const vacuumStarted = performance.now();
    await runtime.pool.query(`VACUUM (ANALYZE) ${SEEDED_TABLES.join(', ')}`);
    const vacuumMs = performance.now() - vacuumStarted;
    const vacuumed = await runPhase('after VACUUM', ctx, settings, csvPieces);
    const loadAfter = loadavg()[0];

    const e = ctx.expected;
    const first = phaseReport(analyzed, settings.runs);
    const second = phaseReport(vacuumed, settings.runs);
    const n = (x: number) => x.toLocaleString('en-US');
    const out = [
      '',
      `compare benchmark: audit comparison of two ${n(settings.pages)}-page audits x ${PER_PAGE} occurrences, ` +
        `goal < ${GOAL_MS} ms`,
      `seeded: 3 COMPLETED audits (base, head, and another organization's), ${n(seeded.rows.occurrences)} ` +
        `issue_occurrence rows (${n(e.rows.base)} base, ${n(e.rows.head)} head), ${n(seeded.rows.pages)} audit_page ` +
        `rows, ${seeded.rows.issues} audit_issue rows; codes: ${BASE_CODES} shared, ${NEW_CODES} head-only ` +
        `(${ctx.codes.added.join(', ')}), 1 base-only (${ctx.codes.baseOnly}), a lost element ` +
        `(${ctx.codes.dependent} in the base, ${ctx.codes.prerequisite} in the head)`,
      `planted: issues new ${n(e.newIssues)}, fixed ${n(e.fixedIssues)}, gone ${n(e.goneIssues)}, not checked ` +
        `${n(e.notCheckedIssues)}, newly checked ${n(e.newlyCheckedIssues)}, persisting ${n(e.persistingIssues)}; ` +
        `URLs added ${e.added}, removed ${e.removed}, status changed ${e.statusChanged}, indexability changed ` +
        `${e.indexabilityChanged} (the ${e.statusChanged} 404s included); verified equal through GraphQL, the ` +
        'repository and the JavaScript baseline (sizes against EXCEPT/INTERSECT), each first page against the ' +
        'JavaScript lists, CSV rows per change',
      `seeding took ${fmt(seedMs)} ms; database create + migrations ${fmt(databaseMs)} ms; sizes ` +
        sizes.rows.map((r) => `${r.rel} ${r.size}`).join(', '),
      `statements per (a) document: ${document.map(([k, c]) => `${k} x${c}`).join(', ')}`,
      `${settings.runs} runs after ${settings.warmup} warm-up rounds, every measurement once per round in an order ` +
        'rotated each round; GraphQL in-process (Fastify inject, session cookie, real rate-limit hit in Redis); SQL ' +
        'and the baseline on the platform pool',
      `node ${process.version}, NODE_ENV=${process.env.NODE_ENV ?? '(unset)'}, tsx; machine: ${cpus().length} ` +
        `CPUs, 1-min load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
      '',
      '== phase 1: ANALYZE only (fresh audits: rows not yet all-visible; autovacuum off on the seeded tables) ==',
      ...first.lines,
      '',
      `== phase 2: after VACUUM (ANALYZE) (${fmt(vacuumMs)} ms; visibility map set) ==`,
      ...second.lines,
      '',
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'compare',
        goalMs: GOAL_MS,
        pages: settings.pages,
        occurrencesPerAudit: { base: e.rows.base, head: e.rows.head },
        planted: totalsOf(e),
        seedMs: Math.round(seedMs),
        settings,
        statementsPerDocument: Object.fromEntries(document),
        meetsGoal: first.json.meetsGoal,
        phases: [first.json, second.json],
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
