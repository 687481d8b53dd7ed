/**
 * Segment explosion (issue 61, point 2): a FREE account fills a project with 50 segments of the most conditions a
 * rule may hold (20, through createSegment; the 21st condition and the 51st segment refused), and a second project
 * with 50 segments of 200 conditions written as an older build saved them, then reads its completed audit's URL table
 * wide: 300 rows (under the GraphQL cost limit) with the segment names column, sorted on it, and filtered on the
 * names. Before, one such read was
 * a statement of over 2 million parameters, 4.8 GB in the API process and a 503 after 63 s. Measured: the answer
 * times (first read, which writes the segments' members, and the later ones), the API process's peak RSS (VmHWM,
 * must stay under 500 MB), the statement the names column makes (computed with the server's own code), and the
 * refusal of a running audit's view that would need a statement over the limit (BAD_USER_INPUT, never a 5xx).
 *
 * `npm run drill -- segment-explosion --quick` (1,000 pages, 3 reads per view: about a minute once built, most of
 * it writing the legacy rules' members);
 * `npm run drill -- segment-explosion` (20,000 pages, 20 reads per view).
 */
import { randomBytes } from 'node:crypto';
import { newId } from '../../src/platform/ids.js';
import { MAX_SEGMENT_CONDITIONS, MAX_SEGMENTS_PER_PROJECT } from '../../src/audits/segment-rule.js';
import {
  MAX_GRID_STATEMENT_CHARS,
  MAX_GRID_STATEMENT_PARAMS,
  segmentNamesField,
} from '../../src/audits/url-table.repository.js';
import { validateFilter } from '../../src/audits/url-table.service.js';
import { createProject } from '../support/actors.js';
import { expectations, type Drill } from './drill.js';
import { startPlatform } from './platform.js';
import { apiClient, drillDoor, peakRssMiB, resetPeakRss, rssMiB, signUp } from './drill-http.js';

const RSS_BUDGET_MIB = 500;

const TABLE = `query($p: ID!, $a: ID!, $sort: UrlTableSortInput, $filter: UrlTableFilterInput, $columns: [String!]) {
  audit(projectId: $p, auditId: $a) {
    urlTable(first: 300, columns: $columns, sort: $sort, filter: $filter) { rows { url values } totalCount } } }`;
const CREATE = `mutation($p: ID!, $input: SegmentInput!) { createSegment(projectId: $p, input: $input) { id } }`;

/** A rule of `n` OR'ed conditions: URL and title `contains`, a few of which hold on some pages. */
const wideFilter = (k: number, n: number) => ({
  combinator: 'OR',
  groups: Array.from({ length: Math.ceil(n / 20) }, (_, g) => ({
    combinator: 'OR',
    conditions: Array.from({ length: Math.min(20, n - g * 20) }, (_, c) =>
      c % 2
        ? { field: 'url', operator: 'contains', value: `/p/${k}${g}${c}` }
        : { field: 'title', operator: 'contains', value: `Title ${k * 200 + g * 20 + c} ${'x'.repeat(g ? 30 : 0)}` },
    ),
  })),
});

/** The names column's statement part for these segments, made by the server's code: parameters and characters. */
function namesStatement(rules: ReturnType<typeof wideFilter>[], stored: boolean) {
  const segments = rules.map((rule, k) => ({
    id: newId(),
    name: `Segment ${k}`,
    stored,
    rule: validateFilter(rule, false)!,
  }));
  const params: unknown[] = ['audit'];
  const sql = segmentNamesField(segments).sqlOf!((v, t) => `$${params.push(v)}::${t}`);
  return { params: params.length, chars: sql.length };
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

export const drill: Drill = {
  description:
    'Segment explosion: 50 segments of the most conditions allowed (and 50 legacy ones of 200) read wide through ' +
    'the segment names column; answer time, API peak RSS < 500 MB, statement size, running-audit refusal',
  async run({ quick, log }) {
    const { expect, result } = expectations();
    const pages = quick ? 1_000 : 20_000;
    const reads = quick ? 3 : 20;
    const platform = await startPlatform({ apis: 1, env: { DEFAULT_PLAN: 'FREE', LOG_LEVEL: 'warn' } });
    const figures: Record<string, unknown> = { pages, readsPerView: reads };
    try {
      const api = apiClient(platform.apis[0].baseUrl);
      const pid = platform.apis[0].pid;
      const attacker = await signUp(api, `segments-${randomBytes(4).toString('hex')}@drill.test`, 'Drill-pass-1234');
      // A FREE plan holds one project: the legacy segments are a second FREE account's.
      const second = await signUp(api, `legacy-${randomBytes(4).toString('hex')}@drill.test`, 'Drill-pass-1234');
      const cookies = new Map<string, string>();
      const gql = (query: string, variables: Record<string, unknown>) =>
        api.gql(query, variables, { cookie: cookies.get(String(variables.p)) ?? attacker.cookie });

      // Two projects, each with one COMPLETED audit of `pages` URLs (written as the worker leaves them).
      const seedProject = async (label: string, account: typeof attacker) => {
        const host = `${label}-${randomBytes(3).toString('hex')}.drill.test`;
        const project = await createProject(drillDoor(api), account, { url: `https://${host}/` });
        cookies.set(project.id, account.cookie);
        const auditId = newId();
        await platform.sql(
          `INSERT INTO audit (id, project_id, status, job_id, pages_crawled, max_pages, created_at, completed_at)
           VALUES ($1::uuid, $2, 'COMPLETED', $1::text, $3, $3, now(), now())`,
          [auditId, project.id, pages],
        );
        await platform.sql(
          `INSERT INTO audit_page (audit_id, url, final_url, status_code, depth, title, indexable, word_count, bytes,
             inlinks, outlinks, kind, issue_code_set)
           SELECT $1, $2 || '/p/' || i, $2 || '/p/' || i, 200, i % 5, 'Title ' || i, true, i % 900, 1000, 0, 0,
             'HTML', '{}' FROM generate_series(0, $3::int - 1) i`,
          [auditId, `https://${host}`, pages],
        );
        return { projectId: project.id, auditId, host };
      };
      const api20 = await seedProject('limits', attacker);
      const legacy = await seedProject('legacy', second);

      // 50 segments of MAX_SEGMENT_CONDITIONS through the API; one more condition and one more segment refused.
      const t0 = performance.now();
      for (let k = 0; k < MAX_SEGMENTS_PER_PROJECT; k++) {
        const res = await gql(CREATE, {
          p: api20.projectId,
          input: { name: `Segment ${k}`, kind: 'FILTER', filter: wideFilter(k, MAX_SEGMENT_CONDITIONS) },
        });
        expect(res.json?.data?.createSegment?.id !== undefined, `segment ${k} saved: ${res.text.slice(0, 200)}`);
      }
      figures.createMs = Math.round(performance.now() - t0);
      const over = await gql(CREATE, {
        p: api20.projectId,
        input: { name: 'One condition more', kind: 'FILTER', filter: wideFilter(99, MAX_SEGMENT_CONDITIONS + 1) },
      });
      expect(
        over.status < 500 && over.json?.errors?.[0]?.extensions?.code === 'BAD_USER_INPUT',
        `a rule of ${MAX_SEGMENT_CONDITIONS + 1} conditions is BAD_USER_INPUT (got ${over.text.slice(0, 200)})`,
      );
      figures.overConditions = over.json?.errors?.[0]?.message;
      const full = await gql(CREATE, {
        p: api20.projectId,
        input: { name: 'Fifty-first', kind: 'PATH', pattern: '/x/' },
      });
      expect(
        full.json?.errors?.[0]?.extensions?.code === 'BAD_USER_INPUT',
        `the 51st segment is BAD_USER_INPUT (got ${full.text.slice(0, 200)})`,
      );
      // 50 segments of 200 conditions, as saved before the limit (straight into the table).
      for (let k = 0; k < MAX_SEGMENTS_PER_PROJECT; k++)
        await platform.sql(
          `INSERT INTO segment (id, project_id, name, kind, filter) VALUES ($1, $2, $3, 'FILTER', $4::jsonb)`,
          [newId(), legacy.projectId, `Legacy ${k}`, JSON.stringify(wideFilter(k, 200))],
        );

      const rules20 = Array.from({ length: 50 }, (_, k) => wideFilter(k, MAX_SEGMENT_CONDITIONS));
      const rules200 = Array.from({ length: 50 }, (_, k) => wideFilter(k, 200));
      figures.namesStatement = {
        kept: namesStatement(rules20, true),
        inline50x20: namesStatement(rules20, false),
        inline50x200Before: namesStatement(rules200, false),
        limits: { params: MAX_GRID_STATEMENT_PARAMS, chars: MAX_GRID_STATEMENT_CHARS },
      };

      const views = {
        names: { columns: ['url', 'title', 'segment'] },
        sortedOnNames: { columns: ['url', 'segment'], sort: { field: 'segment', direction: 'DESC' } },
        filteredOnNames: {
          columns: ['url', 'segment'],
          filter: { groups: [{ conditions: [{ field: 'segment', operator: 'contains', value: 'Segment 1' }] }] },
        },
      };
      resetPeakRss(pid);
      const rssBefore = rssMiB(pid);
      const timing: Record<string, unknown> = {};
      for (const [label, target] of [
        ['limits', api20],
        ['legacy200', legacy],
      ] as const) {
        for (const [view, vars] of Object.entries(views)) {
          const ms: number[] = [];
          for (let i = 0; i <= reads; i++) {
            const res = await gql(TABLE, { p: target.projectId, a: target.auditId, ...vars });
            const rows = res.json?.data?.audit?.urlTable?.rows as unknown[] | undefined;
            const error = res.json?.errors?.[0];
            // A legacy rule of 200 conditions may be too slow to write over many pages: refused by name, never a 5xx.
            if (label === 'legacy200' && error?.extensions?.code === 'BAD_USER_INPUT') {
              expect(/segment "Legacy \d+"/.test(error.message), `the refusal names the segment: ${error.message}`);
              timing[`${label}.${view}.refused`] = { ms: Math.round(res.ms), message: error.message };
              break;
            }
            const ok = expect(
              res.status === 200 && rows !== undefined && !res.json?.errors,
              `${label} ${view} read ${i} answered (got ${res.status} ${res.text.slice(0, 200)})`,
            );
            if (!ok) break;
            ms.push(res.ms);
          }
          timing[`${label}.${view}`] = {
            firstMs: Math.round(ms[0] ?? -1),
            p50Ms: Math.round(percentile(ms.slice(1), 50)),
            p95Ms: Math.round(percentile(ms.slice(1), 95)),
          };
          log(`${label} ${view}: ${JSON.stringify(timing[`${label}.${view}`])}`);
        }
      }
      figures.reads = timing;

      // A running audit of the legacy project: its segments' rules would go into the statement, over the limit.
      const runningId = newId();
      await platform.sql(
        `INSERT INTO audit (id, project_id, status, job_id, max_pages, created_at)
         VALUES ($1::uuid, $2, 'RUNNING', $1::text, 10, now())`,
        [runningId, legacy.projectId],
      );
      await platform.sql(
        `INSERT INTO audit_page (audit_id, url, status_code, depth, indexable, word_count, bytes, inlinks, outlinks,
           kind) VALUES ($1, $2, 200, 0, true, 0, 0, 0, 0, 'HTML')`,
        [runningId, `https://${legacy.host}/p/1`],
      );
      const refused = await gql(TABLE, { p: legacy.projectId, a: runningId, ...views.names });
      expect(
        refused.status < 500 && refused.json?.errors?.[0]?.extensions?.code === 'BAD_USER_INPUT',
        `a running audit's 50x200 names are BAD_USER_INPUT, not sent (got ${refused.status} ` +
          `${refused.text.slice(0, 200)})`,
      );
      figures.runningRefusal = { ms: Math.round(refused.ms), message: refused.json?.errors?.[0]?.message };

      const peak = peakRssMiB(pid);
      figures.apiRssMiB = { before: rssBefore, peak, after: rssMiB(pid) };
      expect(peak !== null && peak < RSS_BUDGET_MIB, `API peak RSS ${peak} MiB < ${RSS_BUDGET_MIB} MiB`);
      const kept = await platform.sql<{ n: number }>(
        'SELECT count(*)::int AS n FROM audit_segment_membership WHERE audit_id = ANY($1::uuid[])',
        [[api20.auditId, legacy.auditId]],
      );
      figures.keptMemberships = kept[0].n;
      expect(kept[0].n >= 50, `the 50 segments' members kept at least (got ${kept[0].n})`);
      return result(figures);
    } finally {
      await platform.stop();
    }
  },
};
