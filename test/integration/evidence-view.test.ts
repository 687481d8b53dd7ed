/**
 * Evidence a person reads (issue 26): every occurrence the real crawler and engine report on the fixture sites is
 * presented, and no cell of any view is JSON, a bare zero or a relative URL. The six lab metrics (a browser's) get
 * their evidence from the page evaluators fed lab numbers, as the engine does with a LabMeter's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OccurrenceRecord } from '../../src/audits/audit-engine.js';
import {
  CHECK_CATALOG,
  EVIDENCE_KEYS_BY_CODE,
  LAB_CHECK_CODES,
  EVIDENCE_KIND_BY_CODE,
  presentEvidence,
  runPageChecks,
  type CheckCode,
  type EvidenceCell,
  type EvidenceView,
  type PageFetch,
} from '../../src/seo/checks/index.js';
import {
  AUDITED_SITES,
  auditSite,
  createFixtureClient,
  startFixtureSites,
  type AuditedSite,
  type FixtureSites,
} from '../fixtures/sites/index.js';
import { renderedOccurrences } from '../support/rendered-occurrences.js';

const ROBOTS_OPT_OUT: ReadonlySet<AuditedSite> = new Set(['robotsError', 'robotsTimeout', 'blocksAll']);

interface Presented {
  site: AuditedSite;
  occurrence: OccurrenceRecord;
  view: EvidenceView | null;
}

let fixtures: FixtureSites;
const presented: Presented[] = [];

function labOccurrences(): OccurrenceRecord[] {
  const url = 'https://lab.test/page';
  const page: PageFetch = {
    url,
    finalUrl: url,
    status: 200,
    depth: 0,
    redirects: [],
    bytes: 10_000,
    headers: { 'content-type': 'text/html' },
    labMetrics: { lcpMs: 4_800, cls: 0.31, inpMs: 640, tbtMs: 900, fcpMs: 3_400, pageWeightBytes: 5_400_000 },
  };
  return runPageChecks(null, page)
    .filter((result) => result.failed && LAB_CHECK_CODES.has(result.code))
    .map((result) => ({ code: result.code, url, evidence: result.evidence ?? null }));
}

beforeAll(async () => {
  fixtures = await startFixtureSites();
  const client = createFixtureClient(fixtures.hosts, {}, { ca: fixtures.certificate.cert });
  await Promise.all(
    AUDITED_SITES.map(async (site) => {
      const run = await auditSite(
        client,
        fixtures.sites[site].url('/'),
        ROBOTS_OPT_OUT.has(site) ? { respectRobots: false } : {},
      );
      for (const occurrence of run.occurrences)
        presented.push({
          site,
          occurrence,
          view: presentEvidence(occurrence.code, occurrence.evidence, occurrence.url),
        });
    }),
  );
  for (const occurrence of [...labOccurrences(), ...renderedOccurrences()])
    presented.push({
      site: 'failing',
      occurrence,
      view: presentEvidence(occurrence.code, occurrence.evidence, occurrence.url),
    });
});

afterAll(async () => {
  await fixtures?.close();
});

function cellsOf(view: EvidenceView): EvidenceCell[] {
  return [...view.facts.map((fact) => fact.value), ...view.tables.flatMap((table) => table.rows.flat())];
}

function viewsOf(code: CheckCode): Presented[] {
  return presented.filter((entry) => entry.occurrence.code === code);
}

/** The one view of `code` at `path` on the failing site. */
function viewAt(code: CheckCode, path: string): EvidenceView | null {
  const url = fixtures.sites.failing.url(path);
  const matches = viewsOf(code).filter((entry) => entry.occurrence.url === url);
  expect(matches, `${code} at ${path}`).toHaveLength(1);
  return matches[0].view;
}

const texts = (rows: EvidenceCell[][]): string[][] => rows.map((row) => row.map((cell) => cell.text));

describe('presentEvidence over every occurrence of the fixture audits', () => {
  it('sees every catalog code fail at least once', () => {
    const seen = new Set(presented.map((entry) => entry.occurrence.code));
    expect(CHECK_CATALOG.map((check) => check.code).filter((code) => !seen.has(code))).toEqual([]);
  });

  it.each(CHECK_CATALOG.map((check) => check.code))('%s: every key its evaluator emits is mapped', (code) => {
    const keys = new Set(viewsOf(code).flatMap((entry) => Object.keys(entry.occurrence.evidence ?? {})));
    expect([...keys].filter((key) => !EVIDENCE_KEYS_BY_CODE[code].includes(key))).toEqual([]);
  });

  it.each(CHECK_CATALOG.map((check) => check.code))('%s: readable cells, no JSON, no empty facts', (code) => {
    for (const { occurrence, view } of viewsOf(code)) {
      if (view === null) continue;
      const where = `${code} at ${occurrence.url}`;
      expect(view.kind, where).toBe(EVIDENCE_KIND_BY_CODE[code]);
      expect(view.facts.length + view.tables.length, where).toBeGreaterThan(0);
      for (const cell of cellsOf(view)) {
        expect(cell.text, where).not.toMatch(/\{"|\[\{|\[object/);
        if (cell.url !== undefined) {
          expect(cell.url, where).toMatch(/^https?:\/\//);
          expect(new URL(cell.url).href, where).toBe(cell.url);
        } else {
          // Text that is an absolute web URL is always a URL cell.
          expect(cell.text, where).not.toMatch(/^https?:\/\/\S+$/);
        }
      }
      for (const fact of view.facts) {
        expect(fact.label, where).not.toBe('');
        expect(fact.value.text.trim(), where).not.toMatch(/^(0|0 \w+|none listed|)$/i);
      }
      for (const table of view.tables) {
        expect(table.caption, where).not.toBe('');
        expect(table.rows.length, where).toBeGreaterThan(0);
        expect(table.rows.length, where).toBeLessThanOrEqual(50);
        expect(table.omitted, where).toBeGreaterThanOrEqual(0);
        for (const row of table.rows) expect(row, where).toHaveLength(table.columns.length);
      }
    }
  });

  it('gives no view where the evidence only restates the failure', () => {
    for (const code of [
      'META_TITLE_MISSING',
      'META_DESCRIPTION_MISSING',
      'LINKS_ORPHAN',
      'TECH_ROBOTS_BLOCKS_ALL',
      'TECH_HSTS_MISSING',
      'META_VIEWPORT_MISSING',
      'TECH_TIMEOUT',
      'TECH_HTTP_PAGE',
    ] as const) {
      const views = viewsOf(code);
      expect(views.length, code).toBeGreaterThan(0);
      for (const { view } of views) expect(view, code).toBeNull();
    }
  });
});

describe('presentEvidence: what each kind shows', () => {
  it('lists broken links with their source page, target and status', () => {
    const page = fixtures.sites.failing.url('/links/broken');
    const view = viewAt('LINKS_INTERNAL_BROKEN', '/links/broken')!;
    expect(view.kind).toBe('LINKS');
    const [table] = view.tables;
    expect(table.columns).toEqual(['Source page', 'Target', 'Status']);
    expect(texts(table.rows)).toContainEqual([page, fixtures.sites.failing.url('/missing'), '404 Not Found']);
    expect(texts(table.rows)).toContainEqual([
      page,
      fixtures.sites.failing.url('/server-error'),
      '500 Internal Server Error',
    ]);
    expect(texts(table.rows)).toContainEqual([page, fixtures.sites.failing.url('/slow'), 'No response']);
    expect(table.rows[0][0].url).toBe(page);
    expect(table.rows.every((row) => row[1].url === row[1].text)).toBe(true);

    const refused = viewAt('LINKS_EXTERNAL_BROKEN', '/links/closed-port')!.tables[0];
    expect(refused.rows[0][2].text).toMatch(/refused/i);
  });

  it('resolves a link written relative (generic link text) and keeps its anchor text', () => {
    const table = viewAt('CONTENT_LINK_TEXT_GENERIC', '/content/generic-link')!.tables[0];
    expect(table.columns).toEqual(['Source page', 'Target', 'Anchor text']);
    expect(table.rows[0][1]).toEqual({
      text: fixtures.sites.failing.url('/about'),
      url: fixtures.sites.failing.url('/about'),
    });
    expect(table.rows[0][2].text).toBe('click here');
  });

  it('shows a large image with its size in binary units, and a broken one with its status', () => {
    const large = viewAt('PERF_IMAGE_TOO_LARGE', '/perf/large-image')!;
    expect(large.kind).toBe('IMAGES');
    expect(large.tables[0].columns).toEqual(['Image', 'Size', 'Dimensions']);
    expect(texts(large.tables[0].rows)).toEqual([
      [fixtures.sites.failing.url('/img/large.png'), '250 KiB', '640 × 480 (attributes)'],
    ]);
    const unsized = viewAt('PERF_IMAGE_NO_DIMENSIONS', '/perf/no-dimensions')!;
    expect(unsized.tables[0].columns).toEqual(['Image', 'Dimensions']);
    expect(texts(unsized.tables[0].rows)).toEqual([
      [fixtures.sites.failing.url('/img/logo.png'), 'No width or height attribute'],
    ]);
    const broken = viewAt('CONTENT_IMAGE_BROKEN', '/resources/broken-image')!;
    expect(texts(broken.tables[0].rows)).toEqual([[fixtures.sites.failing.url('/img/missing.png'), '404 Not Found']]);
  });

  it('names the other pages of a duplicate group', () => {
    const view = viewAt('META_TITLE_DUPLICATE', '/meta/dup-title-a')!;
    expect(view.kind).toBe('DUPLICATES');
    expect(view.facts).toEqual([{ label: 'Title', value: { text: 'Shared title of two fixture garden pages' } }]);
    expect(view.tables[0].rows).toEqual([
      [{ text: fixtures.sites.failing.url('/meta/dup-title-b'), url: fixtures.sites.failing.url('/meta/dup-title-b') }],
    ]);
    const near = viewAt('CONTENT_NEAR_DUPLICATE', '/content/near-a')!;
    expect(texts(near.tables[0].rows)).toEqual([[fixtures.sites.failing.url('/content/near-b'), '100%']]);
  });

  it('lays a redirect chain out hop by hop, and marks the loop', () => {
    const chain = viewAt('LINKS_REDIRECT_CHAIN', '/chain/1')!;
    expect(chain.kind).toBe('REDIRECTS');
    expect(chain.tables[0].columns).toEqual(['URL', 'Status']);
    expect(texts(chain.tables[0].rows)).toEqual([
      [fixtures.sites.failing.url('/chain/1'), '302 Found'],
      [fixtures.sites.failing.url('/chain/2'), '302 Found'],
      [fixtures.sites.failing.url('/chain/end'), 'Final URL'],
    ]);
    const loop = viewAt('LINKS_REDIRECT_LOOP', '/loop-a')!;
    expect(loop.tables[0].rows.at(-1)![1].text).toBe('Visited before: a loop');
  });

  it('shows header names and values', () => {
    const noindex = viewAt('TECH_NOINDEX', '/tech/noindex-header')!;
    expect(noindex.kind).toBe('HEADERS');
    expect(texts(noindex.tables[0].rows)).toEqual([['X-Robots-Tag header', 'noindex']]);
    expect(noindex.facts).toEqual([{ label: 'Noindex set by', value: { text: 'X-Robots-Tag header' } }]);
    const mismatch = viewAt('TECH_CANONICAL_MISMATCH', '/canonical/mismatch')!;
    expect(texts(mismatch.tables[0].rows)).toEqual([
      ['<link rel="canonical"> in the HTML', fixtures.sites.failing.url('/canonical/mismatch')],
      ['Link header', fixtures.sites.failing.url('/about')],
    ]);
  });

  it('lists resources with their type and status, resolving hrefs written relative', () => {
    const broken = viewAt('TECH_RESOURCE_BROKEN', '/resources/broken-stylesheet')!;
    expect(broken.kind).toBe('RESOURCES');
    expect(texts(broken.tables[0].rows)).toEqual([
      [fixtures.sites.failing.url('/css/missing.css'), 'Stylesheet', '404 Not Found'],
    ]);
    const blocking = viewAt('PERF_RENDER_BLOCKING', '/perf/render-blocking')!;
    expect(blocking.facts).toEqual([{ label: 'Blocking scripts', value: { text: '1' } }]);
    expect(blocking.tables[0].rows[0][0].url).toBe(fixtures.sites.failing.url('/js/app.js'));
  });

  it('words values with their units', () => {
    const facts = (code: CheckCode, path: string) =>
      Object.fromEntries(viewAt(code, path)!.facts.map((fact) => [fact.label, fact.value.text]));
    expect(facts('META_TITLE_TOO_SHORT', '/meta/short-title')).toEqual({
      Title: 'Short title',
      Length: '11 characters',
    });
    expect(facts('PERF_TTFB', '/perf/slow-ttfb')['Time to first byte']).toMatch(/^[\d,]+ ms$/);
    expect(facts('TECH_HTML_TOO_LARGE', '/tech/large-html')).toEqual({ 'HTML size': '1.1 MiB' });
    expect(facts('TECH_STATUS_4XX', '/listed/gone')).toEqual({ 'HTTP status': '410 Gone' });
    expect(facts('CONTENT_THIN', '/content/thin')).toEqual({ 'Visible text': '49 words' });
    expect(facts('PERF_DOM_SIZE', '/perf/dom-size')).toEqual({ 'DOM elements': '1,623' });
    const lab = Object.fromEntries(
      viewsOf('PERF_LCP')
        .concat(viewsOf('PERF_CLS'), viewsOf('PERF_PAGE_WEIGHT'))
        .flatMap((entry) => entry.view!.facts.map((fact) => [fact.label, fact.value.text])),
    );
    expect(lab).toEqual({
      'Largest Contentful Paint': '4,800 ms',
      'Cumulative Layout Shift': '0.31',
      'Page weight': '5.1 MiB',
    });
  });
});
