/**
 * The fixture-site audits give the occurrences stored in the check snapshot (test/unit/seo/check-snapshot.ts): the
 * real crawler and engine over every fixture site, plus the lab and rendered evidence only a browser produces, fed
 * to the page evaluators as the engine does. Ports are replaced by the site's name, so the file holds no run's port.
 * `UPDATE_CHECK_SNAPSHOT=1 npx vitest run test/integration/check-fixture-sites-snapshot.test.ts` rewrites the file
 * (a deliberate step, done only when a check's behaviour is meant to change).
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_CATALOG, LAB_CHECK_CODES, runPageChecks, type PageFetch } from '../../src/seo/checks/index.js';
import { renderedOccurrences } from '../support/rendered-occurrences.js';
import {
  AUDITED_SITES,
  auditSite,
  createFixtureClient,
  startFixtureSites,
  type AuditedSite,
  type FixtureSites,
} from '../fixtures/sites/index.js';
import {
  CHECK_SNAPSHOT_PATH,
  asStored,
  buildCheckSnapshot,
  readCheckSnapshot,
  snapshotOccurrences,
  snapshotText,
  type SnapshotOccurrence,
} from '../unit/seo/check-snapshot.js';

const ROBOTS_OPT_OUT: ReadonlySet<AuditedSite> = new Set(['robotsError', 'robotsTimeout', 'blocksAll']);
/** Measured on this run's loaded machine: the crawl's own occurrences vary, the lab ones stand for them. */
const LOAD_DEPENDENT = new Set(['PERF_TTFB']);
/** The lab metrics (a browser's, `needs: 'LAB_BROWSER'`), and the load-dependent ones the lab run stands for. */
const LAB_CODES = [...LAB_CHECK_CODES, ...LOAD_DEPENDENT];

let fixtures: FixtureSites;
const occurrences: SnapshotOccurrence[] = [];

function labOccurrences(): SnapshotOccurrence[] {
  const url = 'https://lab.test/page';
  const page: PageFetch = {
    url,
    finalUrl: url,
    status: 200,
    depth: 0,
    redirects: [],
    bytes: 10_000,
    headers: { 'content-type': 'text/html' },
    labMetrics: {
      lcpMs: 4_800,
      cls: 0.31,
      inpMs: 640,
      tbtMs: 900,
      fcpMs: 3_400,
      pageWeightBytes: 5_400_000,
      ttfbMs: 2_400,
    },
  };
  const middling: PageFetch = {
    ...page,
    url: 'https://lab.test/middling',
    finalUrl: 'https://lab.test/middling',
    labMetrics: {
      lcpMs: 3_000,
      cls: 0.15,
      inpMs: 300,
      tbtMs: 400,
      fcpMs: 2_400,
      pageWeightBytes: 3_000_000,
      ttfbMs: 1_000,
    },
  };
  return [page, middling].flatMap((fetch) =>
    runPageChecks(null, fetch)
      .filter((result) => result.failed && LAB_CODES.includes(result.code))
      .map((result) => ({
        site: 'lab',
        code: result.code,
        url: fetch.url,
        evidence: { ...(result.evidence ?? {}), severity: result.severity ?? null },
      })),
  );
}

/** The run's ports, replaced by the name of the site listening on each (the closed port by "closed"). */
function withoutPorts<V>(value: V, sites: FixtureSites): V {
  let text = JSON.stringify(value);
  const named = [...Object.values(sites.sites), sites.external, sites.plain];
  for (const site of named) text = text.replaceAll(`:${site.port}`, `:${site.host}-port`);
  text = text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:closed-port');
  // Which of the client's two timers fires first on the slow fixture pages depends on the machine's load.
  text = text.replace(
    /The (?:server did not send response headers|fetch did not complete) within \d+ ms/g,
    'timed out',
  );
  return JSON.parse(text) as V;
}

/** Timings the engine measures on this run (response and render times) are not part of a check's verdict. */
const TIMING_KEYS = new Set(['responseMs', 'ttfbMs', 'elapsedMs', 'durationMs']);

function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [key, TIMING_KEYS.has(key) ? '<ms>' : withoutTimings(entry)]),
  );
}

function order(a: SnapshotOccurrence, b: SnapshotOccurrence): number {
  const key = (o: SnapshotOccurrence) => `${o.site}\u0000${o.code}\u0000${o.url}\u0000${JSON.stringify(o.evidence)}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

beforeAll(async () => {
  fixtures = await startFixtureSites();
  // Longer than the harness's timers, still short of the 10 s slow fixtures: on a loaded machine the 5 MB page must
  // not time out, or the snapshot would depend on the load.
  const client = createFixtureClient(
    fixtures.hosts,
    {},
    { ca: fixtures.certificate.cert, headersTimeoutMs: 6_000, totalTimeoutMs: 8_000 },
  );
  const runs = await Promise.all(
    AUDITED_SITES.map(async (site) => {
      const run = await auditSite(
        client,
        fixtures.sites[site].url('/'),
        ROBOTS_OPT_OUT.has(site) ? { respectRobots: false } : {},
      );
      return run.occurrences
        .filter((o) => !LOAD_DEPENDENT.has(o.code))
        .map((o) => ({ site, code: o.code, url: o.url, evidence: o.evidence ?? null }));
    }),
  );
  const crawled = withoutPorts(runs.flat(), fixtures).map((o) => ({
    ...o,
    evidence: withoutTimings(o.evidence) as SnapshotOccurrence['evidence'],
  }));
  occurrences.push(
    ...asStored([
      ...crawled,
      ...labOccurrences(),
      ...renderedOccurrences().map((o) => ({ site: 'rendered', ...o })),
    ]).sort(order),
  );
  if (process.env.UPDATE_CHECK_SNAPSHOT === '1')
    writeFileSync(CHECK_SNAPSHOT_PATH, snapshotText(buildCheckSnapshot(occurrences)));
});

afterAll(async () => {
  await fixtures?.close();
});

/**
 * The 5 MB page (and the page only it links to) is fetched within the timers or not depending on the machine's load:
 * compared only when this run fetched it. The unit test still presents its stored occurrences.
 */
const UNSTEADY = /\/tech\/(?:huge-html|behind-huge)$/;

const stored = snapshotOccurrences(readCheckSnapshot());
const catalogCodes: readonly string[] = CHECK_CATALOG.map((check) => check.code);

describe('the fixture-site audits', () => {
  const steady = (list: readonly SnapshotOccurrence[], code: string) => {
    const fetchedHuge = occurrences.some((o) => o.code === 'TECH_HTML_TOO_LARGE' && UNSTEADY.test(o.url));
    return list.filter((o) => o.code === code && (fetchedHuge || !UNSTEADY.test(o.url)));
  };

  it('report catalog codes only', () => {
    expect(occurrences.filter((o) => !catalogCodes.includes(o.code))).toEqual([]);
  });

  it.each(catalogCodes)('%s: the stored occurrences, each with its stored evidence', (code) => {
    expect(steady(occurrences, code)).toEqual(steady(stored, code));
  });
});
