/**
 * presentEvidence on evidence shapes the fixture audits do not produce (test/integration/evidence-view.test.ts
 * presents every occurrence of those): each made by the real evaluators, plus stored rows of unknown shape.
 */
import { describe, expect, it } from 'vitest';
import {
  CHECK_CATALOG,
  EVIDENCE_KIND_BY_CODE,
  EVIDENCE_MAX_ROWS,
  evaluateLinkTargets,
  presentEvidence,
  runPageChecks,
  runSiteChecks,
  sitemapListingOutcome,
  type EvidenceView,
  type LinkTargetInfo,
  type PageFetch,
  type SiteCheckInput,
} from '../../../src/seo/checks/index.js';
import { extractPageFacts } from '../../../src/seo/page/index.js';

const PAGE = 'https://example.com/shop/widgets';

function pageEvidence(code: string, html: string, page: Partial<PageFetch> = {}): Record<string, unknown> | null {
  const fetch: PageFetch = {
    url: PAGE,
    finalUrl: PAGE,
    status: 200,
    depth: 1,
    redirects: [],
    bytes: html.length,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    ...page,
  };
  const facts = extractPageFacts(html, { url: PAGE, headers: fetch.headers, status: fetch.status });
  const result = runPageChecks(facts, fetch).find((r) => r.code === code)!;
  expect(result.failed, code).toBe(true);
  return result.evidence ?? null;
}

function siteEvidence(
  code: string,
  input: Partial<SiteCheckInput>,
): { url: string; evidence: Record<string, unknown> } {
  const result = runSiteChecks({ startUrl: 'https://example.com/', pages: [], ...input }).site.find(
    (r) => r.code === code,
  )!;
  expect(result.failed, code).toBe(true);
  return { url: result.occurrences[0].url, evidence: result.occurrences[0].evidence ?? {} };
}

function linkEvidence(
  verdict: 'internalBroken' | 'canonicalToBroken',
  targets: Record<string, LinkTargetInfo>,
  canonical: string | null = null,
): Record<string, unknown> {
  const outcome = evaluateLinkTargets(
    {
      selfUrl: PAGE,
      selfNoindex: false,
      internalLinks: Object.keys(targets),
      externalLinks: [],
      canonical,
    },
    (url) => targets[url],
  )[verdict];
  expect(outcome?.failed, verdict).toBe(true);
  return outcome!.evidence!;
}

const facts = (view: EvidenceView | null): Record<string, string> =>
  Object.fromEntries((view?.facts ?? []).map((fact) => [fact.label, fact.value.text]));

const cellTexts = (view: EvidenceView): string[] => [
  ...view.facts.map((fact) => fact.value.text),
  ...view.tables.flatMap((table) => table.rows.flat().map((cell) => cell.text)),
];

describe('presentEvidence', () => {
  it('knows the kind of every catalog code', () => {
    expect(CHECK_CATALOG.filter((check) => !(check.code in EVIDENCE_KIND_BY_CODE))).toEqual([]);
  });

  it('says nothing when there is no evidence, or only what the check title says', () => {
    expect(presentEvidence('META_VIEWPORT_MISSING', null, PAGE)).toBeNull();
    expect(presentEvidence('LINKS_ORPHAN', { inlinks: 0 }, PAGE)).toBeNull();
    const missing = pageEvidence('META_TITLE_MISSING', '<html><head></head><body><p>Text</p></body></html>');
    expect(missing).toEqual({ titleCount: 0 });
    expect(presentEvidence('META_TITLE_MISSING', missing, PAGE)).toBeNull();
  });

  it('tells an empty title element from a missing one', () => {
    const empty = pageEvidence('META_TITLE_MISSING', '<html><head><title> </title></head><body></body></html>');
    expect(facts(presentEvidence('META_TITLE_MISSING', empty, PAGE))).toEqual({
      'Title element': 'Present, but empty',
    });
  });

  it('counts links beyond the evaluator sample as omitted rows', () => {
    const targets = Object.fromEntries(
      Array.from({ length: 8 }, (_, i): [string, LinkTargetInfo] => [`https://example.com/gone-${i}`, { status: 410 }]),
    );
    const view = presentEvidence('LINKS_INTERNAL_BROKEN', linkEvidence('internalBroken', targets), PAGE)!;
    expect(view.tables).toHaveLength(1);
    expect(view.tables[0].rows).toHaveLength(5);
    expect(view.tables[0].omitted).toBe(3);
    expect(view.tables[0].rows[0].map((cell) => cell.text)).toEqual([PAGE, 'https://example.com/gone-0', '410 Gone']);
    expect(view.facts).toEqual([]);
  });

  it.each([
    [{ 'https://example.com/c': { status: 301, redirected: true } }, 'Redirects'],
    [{ 'https://example.com/c': { status: 200, noindex: true } }, 'Marked noindex'],
    [{ 'https://example.com/c': { status: null, failure: 'timed out' } }, 'No response'],
    [{ 'https://example.com/c': { status: 503 } }, '503 Service Unavailable'],
  ] as [Record<string, LinkTargetInfo>, string][])('words a bad canonical target %j as %s', (targets, problem) => {
    const evidence = linkEvidence('canonicalToBroken', targets, 'https://example.com/c');
    const view = presentEvidence('TECH_CANONICAL_TO_BROKEN', evidence, PAGE)!;
    expect(view.tables[0].rows[0].map((cell) => cell.text)).toEqual([PAGE, 'https://example.com/c', problem]);
  });

  it('shows an HSTS header that switches itself off', () => {
    const { url, evidence } = siteEvidence('TECH_HSTS_MISSING', { hsts: { https: true, header: 'max-age=0' } });
    const view = presentEvidence('TECH_HSTS_MISSING', evidence, url)!;
    expect(view.kind).toBe('HEADERS');
    expect(view.tables[0].rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['Strict-Transport-Security', 'max-age=0'],
    ]);
    expect(facts(view)).toEqual({ Problem: 'max-age=0 switches HSTS off' });
  });

  it('says how much of an oversized page was analysed', () => {
    const evidence = pageEvidence('TECH_HTML_TOO_LARGE', '<!DOCTYPE html><html><body><p>Start</p>', {
      bodyCapped: { declaredBytes: 8 * 1024 * 1024 },
    });
    expect(facts(presentEvidence('TECH_HTML_TOO_LARGE', evidence, PAGE))).toEqual({
      'HTML size': '8 MiB',
      Analysed: expect.stringMatching(/^The first \d+ bytes only$/),
    });
  });

  it('resolves relative hreflang URLs and keeps what the page wrote', () => {
    const html =
      '<!DOCTYPE html><html lang="en"><head><link rel="alternate" hreflang="fr" href="../fr/widgets">' +
      '<link rel="alternate" hreflang="en" href="https://example.com/shop/widgets"></head><body></body></html>';
    const view = presentEvidence('META_HREFLANG_RELATIVE', pageEvidence('META_HREFLANG_RELATIVE', html), PAGE)!;
    expect(view.tables[0].rows).toEqual([
      [{ text: '../fr/widgets' }, { text: 'https://example.com/fr/widgets', url: 'https://example.com/fr/widgets' }],
    ]);
  });

  it('keeps an uncrawlable href as text, never as a link', () => {
    // An empty href is the page itself (Lighthouse passes it); an onclick-only anchor has no href at all.
    const html = '<html><body><a href="javascript:void(0)">Open the map</a><a onclick="go()">Blank</a></body></html>';
    const view = presentEvidence('LINKS_UNCRAWLABLE', pageEvidence('LINKS_UNCRAWLABLE', html), PAGE)!;
    expect(view.tables[0].rows.map((row) => row.slice(1))).toEqual([
      [{ text: 'javascript:void(0)' }, { text: 'Open the map' }],
      [{ text: '(empty)' }, { text: 'Blank' }],
    ]);
  });

  it('names where a sitemap URL redirects', () => {
    const outcome = sitemapListingOutcome({
      redirected: true,
      status: 200,
      finalUrl: 'https://example.com/new',
      isHtml: true,
      noindex: false,
      indexable: true,
    });
    const view = presentEvidence('TECH_SITEMAP_NON_INDEXABLE', outcome.evidence!, 'https://example.com/old')!;
    expect(view.facts).toEqual([
      { label: 'Why', value: { text: 'Redirects to another URL' } },
      { label: 'HTTP status', value: { text: '200 OK' } },
      { label: 'Final URL', value: { text: 'https://example.com/new', url: 'https://example.com/new' } },
    ]);
  });

  it('says "No response" for robots.txt that gave none', () => {
    const { url, evidence } = siteEvidence('TECH_ROBOTS_UNREACHABLE', { robots: { status: null } });
    expect(facts(presentEvidence('TECH_ROBOTS_UNREACHABLE', evidence, url))).toEqual({ Status: 'No response' });
  });

  it('shows a doctype of another kind', () => {
    const evidence = pageEvidence('META_DOCTYPE_MISSING', '<!DOCTYPE svg><html><body></body></html>');
    expect(facts(presentEvidence('META_DOCTYPE_MISSING', evidence, PAGE))).toEqual({ Doctype: '<!DOCTYPE svg>' });
  });

  it('renders a code outside the catalog without JSON, and caps its tables', () => {
    const evidence = {
      count: 0,
      reason: 'legacy reason',
      nested: { deep: { deeper: 1 } },
      links: Array.from({ length: EVIDENCE_MAX_ROWS + 10 }, (_, i) => ({
        url: `/old/${i}`,
        status: 404,
        extra: { note: 'x' },
      })),
      tags: ['a', 'b'],
    };
    const view = presentEvidence('RETIRED_CHECK', evidence, PAGE)!;
    expect(view.kind).toBe('VALUES');
    expect(view.facts).toEqual([{ label: 'Reason', value: { text: 'legacy reason' } }]);
    const [links, tags] = view.tables;
    expect(links.columns).toEqual(['Url', 'Status']);
    expect(links.rows).toHaveLength(EVIDENCE_MAX_ROWS);
    expect(links.omitted).toBe(10);
    expect(tags.rows).toEqual([[{ text: 'a' }], [{ text: 'b' }]]);
    for (const text of cellTexts(view)) expect(text).not.toMatch(/\{"|\[\{|\[object/);
  });

  it('shows a value a known evaluator adds later under its own name', () => {
    const view = presentEvidence('TECH_STATUS_4XX', { status: 404, retryAfter: 'tomorrow' }, PAGE);
    expect(facts(view)).toEqual({ 'HTTP status': '404 Not Found', 'Retry after': 'tomorrow' });
  });
});
