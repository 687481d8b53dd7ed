import type pg from 'pg';
import type { Page } from 'playwright-core';
import { SETTLE } from './page-vitals.js';

/**
 * The keywords page at scale: 1,000 tracked keywords on one project (two checks each, so positions and changes are
 * there) and 20 of them with a daily check for 365 days (a failed check every 30th day and "not found" every 45th:
 * gaps), drawn together in the comparison chart. Rows go in by SQL, as the rank worker writes them.
 *
 * Interactions are timed in the page, from the input or click event's timestamp to the DOM showing the result and
 * to the frame after it (requestAnimationFrame, then a task), as the issues page's are.
 */

export const KEYWORDS = 1000;
export const CHARTED = 20;
export const CHART_DAYS = 365;
/** A word one keyword in eight has (see the terms below): the filter keeps 125 of 1,000. */
export const FILTER_TERM = 'balcony';

export interface KeywordsSeed {
  projectId: string;
  chartedIds: string[];
  rankings: number;
  filterMatches: number;
}

const WORDS = ['balcony', 'garden', 'herb', 'planter', 'compost', 'seed', 'trellis', 'watering'];
const KINDS = ['ideas', 'for beginners', 'near me', 'best', 'cheap', 'how to', 'guide'];

export async function seedKeywordsBench(pool: pg.Pool, projectId: string): Promise<KeywordsSeed> {
  // Terms like "balcony ideas 17": one word of eight, one kind of seven, a number (unique per project).
  await pool.query(
    `INSERT INTO keyword (id, project_id, term, term_key, country, language, device, created_at)
     SELECT gen_random_uuid(), $1, t.term, lower(t.term), CASE WHEN i % 5 = 0 THEN 'gb' ELSE 'us' END, 'en',
            CASE WHEN i % 3 = 0 THEN 'mobile' ELSE 'desktop' END, now() - make_interval(secs => $2 - i)
     FROM generate_series(1, $2) i,
          LATERAL (SELECT ($3::text[])[1 + i % 8] || ' ' || ($4::text[])[1 + i % 7] || ' ' || i AS term) t`,
    [projectId, KEYWORDS, WORDS, KINDS],
  );
  const ids = (
    await pool.query<{ id: string }>('SELECT id FROM keyword WHERE project_id = $1 ORDER BY created_at, id', [
      projectId,
    ])
  ).rows.map((r) => r.id);
  const chartedIds = ids.slice(0, CHARTED);
  // Every keyword: yesterday's and today's check (positions 1-100, one in nine not found).
  await pool.query(
    `INSERT INTO ranking (id, keyword_id, status, position, url, provider, checked_at)
     SELECT gen_random_uuid(), k.id, 'OK', CASE WHEN (k.n + d) % 9 = 0 THEN NULL ELSE 1 + (k.n * 7 + d * 3) % 100 END,
            CASE WHEN (k.n + d) % 9 = 0 THEN NULL ELSE 'https://bench.example.com/page-' || k.n END, 'bench',
            now() - make_interval(days => d, secs => k.n)
     FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM keyword WHERE project_id = $1
           AND NOT (id = ANY($2::uuid[]))) k, generate_series(0, 1) d`,
    [projectId, chartedIds],
  );
  // The charted keywords: a check a day for a year, with gaps (failed every 30th day, not found every 45th).
  await pool.query(
    `INSERT INTO ranking (id, keyword_id, status, position, url, provider, error, checked_at)
     SELECT gen_random_uuid(), k.id, CASE WHEN d % 30 = 7 THEN 'FAILED' ELSE 'OK' END,
            CASE WHEN d % 30 = 7 OR d % 45 = 11 THEN NULL ELSE 1 + abs((k.n * 5 + d / 4) % 40 - 20) + k.n END,
            CASE WHEN d % 30 = 7 OR d % 45 = 11 THEN NULL ELSE 'https://bench.example.com/page-' || k.n END,
            'bench', CASE WHEN d % 30 = 7 THEN 'bench: HTTP 429' END,
            now() - make_interval(days => d, secs => k.n)
     FROM (SELECT id, ordinality AS n FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id)) k,
          generate_series(0, $2 - 1) d`,
    [chartedIds, CHART_DAYS],
  );
  const rankings = (
    await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ranking r JOIN keyword k ON k.id = r.keyword_id WHERE k.project_id = $1',
      [projectId],
    )
  ).rows[0].n;
  const filterMatches = (
    await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM keyword WHERE project_id = $1 AND term ILIKE $2`, [
      projectId,
      `%${FILTER_TERM}%`,
    ])
  ).rows[0].n;
  return { projectId, chartedIds, rankings, filterMatches };
}

export interface TimedInput {
  toUpdateMs: number | null;
  toPaintMs: number | null;
}

export interface KeywordsInteraction {
  kind: 'keywords';
  /** Keyword rows in the DOM once ready (the table is virtualized). */
  rowsInDom: number;
  filter: TimedInput & { shown: string | null };
  clear: TimedInput;
  sort: TimedInput & { firstRow: string | null };
  legend: TimedInput;
}

/** Arms a watch: from the next `event` (capture phase) until `condition` holds in the DOM, then the next frame. */
const ARM = (event: string, condition: string) => `(() => {
  const w = { startAt: null, changedAt: null, paintedAt: null };
  const onEvent = (e) => { if (w.startAt === null) w.startAt = e.timeStamp; };
  document.addEventListener('${event}', onEvent, true);
  w.done = new Promise((resolve) => {
    const check = () => {
      if (w.startAt === null || w.changedAt !== null || !(${condition})) return;
      obs.disconnect();
      document.removeEventListener('${event}', onEvent, true);
      w.changedAt = performance.now();
      requestAnimationFrame(() => setTimeout(() => { w.paintedAt = performance.now(); resolve(); }, 0));
    };
    const obs = new MutationObserver(check);
    obs.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  });
  window.__kwWatch = w;
  return true;
})()`;

const AWAIT = (timeoutMs: number) => `(async () => {
  const w = window.__kwWatch;
  await Promise.race([w.done, new Promise((r) => setTimeout(r, ${timeoutMs}))]);
  await ${SETTLE};
  return { startAt: w.startAt, changedAt: w.changedAt, paintedAt: w.paintedAt };
})()`;

async function timed(page: Page, event: string, condition: string, act: () => Promise<void>): Promise<TimedInput> {
  await page.evaluate(ARM(event, condition));
  await act();
  const w = (await page.evaluate(AWAIT(10_000))) as {
    startAt: number | null;
    changedAt: number | null;
    paintedAt: number | null;
  };
  const since = (t: number | null) => (w.startAt === null || t === null ? null : t - w.startAt);
  return { toUpdateMs: since(w.changedAt), toPaintMs: since(w.paintedAt) };
}

const STATUS_TEXT = `[...document.querySelectorAll('[role="status"]')].map((e) => e.textContent || '').join(' | ')`;
const ROWS_IN_DOM = `document.querySelectorAll('table.table-keywords tbody th[scope="row"]').length`;

/** Filter, clear, sort by position and hide a chart line, in the page that was just measured. */
export async function measureKeywordsInteraction(page: Page, seed: KeywordsSeed): Promise<KeywordsInteraction> {
  const rowsInDom = (await page.evaluate(ROWS_IN_DOM)) as number;
  const search = page.getByLabel('Search keywords or URLs');
  const matchText =
    `${seed.filterMatches.toLocaleString('en-US')} of ${KEYWORDS.toLocaleString('en-US')} ` + 'keywords match';
  const filter = await timed(page, 'input', `(${STATUS_TEXT}).includes(${JSON.stringify(matchText)})`, () =>
    search.fill(FILTER_TERM),
  );
  const shown = ((await page.evaluate(STATUS_TEXT)) as string).match(/[\d,]+ of [\d,]+ keywords match/)?.[0] ?? null;
  const clear = await timed(page, 'input', `!(${STATUS_TEXT}).includes('keywords match')`, () => search.fill(''));
  const sort = await timed(
    page,
    'click',
    `(document.querySelector('table.table-keywords th[aria-sort="ascending"]')?.textContent || '')` +
      `.startsWith('Position')`,
    () =>
      page
        .getByRole('table', { name: /Tracked keywords/ })
        .getByRole('button', { name: /^Position/ })
        .click(),
  );
  const firstRow = (await page.evaluate(
    `document.querySelector('table.table-keywords tbody th[scope="row"]')?.textContent ?? null`,
  )) as string | null;
  // The comparison chart's legend: hiding the first keyword's line redraws 20 x 365 points.
  const legend = await timed(
    page,
    'click',
    `!!document.querySelector('.keyword-chart .u-legend .u-series.u-off')`,
    () => page.locator('.keyword-chart .u-legend .u-series').nth(1).click(),
  );
  return { kind: 'keywords', rowsInDom, filter: { ...filter, shown }, clear, sort: { ...sort, firstRow }, legend };
}

export interface KeywordsSummary {
  runs: number;
  /** Medians of input-to-paint (ms) per interaction; null when no run painted it. */
  filterMs: number | null;
  clearMs: number | null;
  sortMs: number | null;
  legendMs: number | null;
  worstMs: number | null;
  rowsInDom: number;
  shown: string[];
  firstRows: string[];
  met: boolean;
}

const medianOf = (xs: (number | null)[]): number | null => {
  const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};

export function summarizeKeywords(runs: KeywordsInteraction[], goalMs: number): KeywordsSummary {
  const filterMs = medianOf(runs.map((r) => r.filter.toPaintMs));
  const clearMs = medianOf(runs.map((r) => r.clear.toPaintMs));
  const sortMs = medianOf(runs.map((r) => r.sort.toPaintMs));
  const legendMs = medianOf(runs.map((r) => r.legend.toPaintMs));
  const all = [filterMs, clearMs, sortMs, legendMs];
  const worstMs = all.every((x) => x !== null) ? Math.max(...(all as number[])) : null;
  return {
    runs: runs.length,
    filterMs,
    clearMs,
    sortMs,
    legendMs,
    worstMs,
    rowsInDom: Math.max(0, ...runs.map((r) => r.rowsInDom)),
    shown: [...new Set(runs.map((r) => r.filter.shown ?? 'none'))],
    firstRows: [...new Set(runs.map((r) => r.sort.firstRow ?? 'none'))],
    met: runs.length > 0 && worstMs !== null && worstMs <= goalMs,
  };
}

export function formatKeywordsSummary(s: KeywordsSummary, goalMs: number): string[] {
  const ms = (x: number | null) => (x === null ? 'not painted' : `${x.toFixed(1)} ms`);
  return [
    `keywords page (${KEYWORDS.toLocaleString('en-US')} keywords, comparison chart of ${CHARTED} x ${CHART_DAYS} ` +
      `days), input to paint, median of ${s.runs} runs:`,
    `  filter "${FILTER_TERM}" ${ms(s.filterMs)} (showed ${s.shown.join(' / ')}), clear ${ms(s.clearMs)}, ` +
      `sort by position ${ms(s.sortMs)} (first row ${s.firstRows.join(' / ')}), hide a chart line ${ms(s.legendMs)}`,
    `  keyword rows in the DOM: ${s.rowsInDom} of ${KEYWORDS} (virtualized); goal each <= ${goalMs} ms: ` +
      `${s.met ? 'met' : 'NOT MET'}`,
  ];
}
