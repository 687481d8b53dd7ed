import { performance } from 'node:perf_hooks';
import { gql, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject } from '../factories.js';
import { percentile } from './bench-report.js';
import { fmt, intFromEnv, measureInterleaved, median, type Measurement } from './sql-bench-kit.js';

/**
 * Keyword cannibalisation (src/keywords/cannibalisation.ts) read on a project with a year-like rank history: 1,000
 * keywords (BENCH_CANNIBAL_KEYWORDS) each checked daily for 90 days (the longest window the query accepts), each
 * check's snapshot keeping its top BENCH_CANNIBAL_RESULTS (30) results. Every keyword ranks one site URL at every
 * check; every 2nd keyword also a second site URL every 3rd day, every 5th a third every 10th day: 600 of 1,000 are
 * cannibalised (2-3 site URLs), whatever the window. Measured, interleaved: the web app's query through POST /graphql
 * (session cookie) over 14 and 90 days, and GET /api/v1/projects/:projectId/keywords/cannibalisation over 90 days
 * (an API key). Goal: p95 < 150 ms each. Timings are reported; the bench fails only when an answer is wrong.
 */

export const CANNIBALISATION_GOAL_MS = 150;
const DAYS = 90;

const QUERY = `query($p: ID!, $d: Int!) { keywordCannibalisation(projectId: $p, days: $d, minUrls: 2) {
  keywordId term checks maxUrlsAtOneCheck latestUrls latestCheckedAt
  urls { url bestPosition latestPosition positions { checkedAt position } } } }`;

/** 1,000 keywords of the project, oldest first. */
const INSERT_KEYWORDS = `INSERT INTO keyword (id, project_id, term, term_key, country, language, device, created_at)
  SELECT gen_random_uuid(), $1, 'keyword ' || i, 'keyword ' || i, 'us', 'en', 'desktop',
    now() - interval '100 days' + i * interval '1 second'
  FROM generate_series(1, $2::int) i`;

/**
 * One snapshot per keyword and day: $2 the site's origin, $3 results per snapshot. The site's first URL at a
 * position of 1-7, a second (every 2nd keyword, every 3rd day) at 12, a third (every 5th keyword, every 10th day) at
 * 18; the others are other sites'.
 */
const INSERT_SNAPSHOTS = `WITH k AS (SELECT id, row_number() OVER (ORDER BY created_at, id)::int AS n FROM keyword
    WHERE project_id = $1)
  INSERT INTO serp_snapshot (id, keyword_id, provider, checked_at, requests, results)
  SELECT gen_random_uuid(), k.id, 'serper', now() - d * interval '1 day' - interval '1 hour', 1,
    (SELECT jsonb_agg(jsonb_build_object('position', p, 'url', u.url, 'domain', split_part(split_part(u.url, '//', 2),
       '/', 1), 'title', 'Result ' || p, 'snippet', 'A snippet of the result about keyword ' || k.n) ORDER BY p)
     FROM generate_series(1, $3::int) p
     CROSS JOIN LATERAL (SELECT CASE
       WHEN p = 1 + k.n % 7 THEN $2 || '/kw/' || k.n
       WHEN p = 12 AND k.n % 2 = 0 AND d % 3 = 0 THEN $2 || '/blog/kw-' || k.n
       WHEN p = 18 AND k.n % 5 = 0 AND d % 10 = 0 THEN $2 || '/tags/' || k.n || '/'
       ELSE 'https://site' || ((k.n * 31 + p) % 97) || '.example.org/page/' || k.n || '/' || p END AS url) u)
  FROM k CROSS JOIN generate_series(0, ${DAYS - 1}) d`;

/** The site's candidates kept apart, as the rank worker stores them with each snapshot (insertSnapshot). */
const STORE_SITE_RESULTS = `UPDATE serp_snapshot s SET site_needle = $2, site_results = COALESCE(
    (SELECT jsonb_agg(e ORDER BY (e->>'position')::numeric) FROM jsonb_array_elements(s.results) e
     WHERE jsonb_typeof(e) = 'object' AND (strpos(lower(e->>'url'), $2) > 0 OR strpos(lower(e->>'domain'), $2) > 0)),
    '[]'::jsonb)
  WHERE keyword_id IN (SELECT id FROM keyword WHERE project_id = $1)`;

export interface CannibalisationReport {
  lines: string[];
  json: Record<string, unknown>;
}

/** Seeds its own organization and project in the bench's database, checks the answers, measures. */
export async function runCannibalisationReads(
  t: TestApp,
  settings: { runs: number; warmup: number },
  log: (line: string) => void,
): Promise<CannibalisationReport> {
  const keywords = intFromEnv('BENCH_CANNIBAL_KEYWORDS', 1_000, 10);
  const results = intFromEnv('BENCH_CANNIBAL_RESULTS', 30, 20);
  const org = await anOrg(t, { plan: 'ENTERPRISE' });
  const project = await aProject({ org, url: `https://cannibal-${Date.now().toString(36)}.example.com` });
  const origin = `https://${project.domain}`;
  const key = await anApiKey(org, 'bench');
  const q = (sql: string, params: unknown[]) => t.runtime.pool.query(sql, params);
  log(`cannibalisation: seeding ${keywords} keywords x ${DAYS} daily snapshots of ${results} results`);
  const seedStarted = performance.now();
  await q(INSERT_KEYWORDS, [project.id, keywords]);
  const snapshots = (await q(INSERT_SNAPSHOTS, [project.id, origin, results])).rowCount ?? 0;
  await q(STORE_SITE_RESULTS, [project.id, project.domain]);
  // The rank worker inserts each snapshot once: the UPDATE's dead row versions are not what it leaves behind.
  await q('VACUUM (FULL, ANALYZE) serp_snapshot', []);
  await q('ANALYZE keyword', []);
  const seedMs = performance.now() - seedStarted;
  const { rows: size } = await t.runtime.pool.query<{ size: string }>(
    `SELECT pg_size_pretty(pg_total_relation_size('serp_snapshot')) AS size`,
  );
  const expected = Array.from({ length: keywords }, (_, i) => i + 1).filter((n) => n % 2 === 0 || n % 5 === 0).length;

  const errors: string[] = [];
  const viaGraphql = async (days: number) => {
    const { status, body } = await gql(t, QUERY, { p: project.id, d: days }, { cookie: org.owner.cookie });
    if (status !== 200 || body.errors)
      throw new Error(`POST /graphql answered ${status}: ${JSON.stringify(body.errors)}`);
    return body.data.keywordCannibalisation as { urls: unknown[]; checks: number }[];
  };
  const viaV1 = async (days: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/projects/${project.id}/keywords/cannibalisation?days=${days}`,
      headers: { authorization: `Bearer ${key}` },
    });
    if (res.statusCode !== 200) throw new Error(`GET /api/v1 answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
    return (res.json() as { keywords: { urls: unknown[]; checks: number }[] }).keywords;
  };
  const verify = (name: string, list: { urls: unknown[]; checks: number }[], days: number) => {
    if (list.length !== expected) errors.push(`${name}: ${list.length} cannibalised keywords, expected ${expected}`);
    if (list.some((k) => k.urls.length < 2 || k.urls.length > 3 || k.checks !== days))
      errors.push(`${name}: a keyword with other than 2-3 URLs or ${days} checks`);
  };
  verify('graphql 14 days', await viaGraphql(14), 14);
  verify('graphql 90 days', await viaGraphql(DAYS), DAYS);
  verify('v1 90 days', await viaV1(DAYS), DAYS);
  if (errors.length) throw new Error(`cannibalisation bench: ${errors.join('; ')}`);

  const measurements: Measurement[] = [
    { name: 'gql14', label: 'POST /graphql keywordCannibalisation, 14 days', run: () => viaGraphql(14) },
    { name: 'gql90', label: `POST /graphql keywordCannibalisation, ${DAYS} days`, run: () => viaGraphql(DAYS) },
    { name: 'v190', label: `GET /api/v1/.../keywords/cannibalisation, ${DAYS} days`, run: () => viaV1(DAYS) },
  ];
  const samples = await measureInterleaved(measurements, settings.runs, settings.warmup, log);
  const width = Math.max(...measurements.map((m) => m.label.length));
  const rows = measurements.map((m) => {
    const xs = samples.get(m.name)!;
    return { name: m.name, label: m.label, medianMs: median(xs), p95Ms: percentile(xs, 95) };
  });
  const meetsGoal = rows.every((r) => r.p95Ms < CANNIBALISATION_GOAL_MS);
  return {
    lines: [
      `== keyword cannibalisation: ${keywords.toLocaleString('en-US')} keywords x ${DAYS} days, ` +
        `${snapshots.toLocaleString('en-US')} snapshots of ${results} results (serp_snapshot ${size[0].size}), ` +
        `${expected} cannibalised; seeded in ${fmt(seedMs)} ms; goal p95 < ${CANNIBALISATION_GOAL_MS} ms ==`,
      `${'read'.padEnd(width)}     median       p95`,
      ...rows.map((r) => `${r.label.padEnd(width)}  ${fmt(r.medianMs).padStart(9)}  ${fmt(r.p95Ms).padStart(8)}`),
      `goal: ${meetsGoal ? 'MEETS GOAL' : 'MISSES GOAL'}`,
    ],
    json: {
      keywords,
      days: DAYS,
      results,
      snapshots,
      cannibalised: expected,
      seedMs: Math.round(seedMs),
      goalMs: CANNIBALISATION_GOAL_MS,
      meetsGoal,
      reads: rows.map((r) => ({ ...r, medianMs: Number(r.medianMs.toFixed(3)), p95Ms: Number(r.p95Ms.toFixed(3)) })),
    },
  };
}
