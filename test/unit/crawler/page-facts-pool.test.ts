import { afterAll, describe, expect, it } from 'vitest';
import { PageAnalysisError, createPageFactsPool, type PageFactsStop } from '../../../src/crawler/index.js';
import type { ExtractorSpec } from '../../../src/seo/extraction/index.js';
import { extractPageFacts, type PageContext } from '../../../src/seo/page/index.js';
import { failingSite } from '../../fixtures/sites/failing-site.js';

const origin = 'http://fail.test:8080';
// Every page of the failing fixture site: one defect per page, so the facts cover every extractor branch.
const pages = Object.entries(
  failingSite({
    origin,
    external: 'https://ext.test:8443',
    loopbackIp: 'http://127.0.0.1:9',
    otherHost: 'other.test',
    closed: 'http://127.0.0.1:9',
  }),
)
  .filter(([, r]) => typeof r.body === 'string' && /<html/i.test(r.body))
  .map(([path, r]) => ({
    url: `${origin}${path}`,
    html: r.body as string,
    headers: (r.headers ?? {}) as Record<string, string>,
  }));

const pool = createPageFactsPool(2);
afterAll(() => pool.close());

describe('page-facts thread pool', () => {
  it('gives exactly the facts of in-thread parsing for every page of the failing fixture site', async () => {
    expect(pages.length).toBeGreaterThan(40);
    const results = await Promise.all(
      pages.map((p) => pool.extract(Buffer.from(p.html), { url: p.url, headers: p.headers, status: 200 })),
    );
    results.forEach((facts, i) => {
      expect(facts, pages[i].url).toStrictEqual(
        extractPageFacts(Buffer.from(pages[i].html), { url: pages[i].url, headers: pages[i].headers, status: 200 }),
      );
    });
  });

  it('transfers a Buffer that owns its memory, and copies a slice of a shared one (leaving it intact)', async () => {
    // A Buffer over its own ArrayBuffer (Node 24's Buffer.concat may return a slice of its pool, which is copied).
    const owned = Buffer.from(new ArrayBuffer(8212)).fill(32);
    owned.write('<title>Owned</title>');
    expect((await pool.extract(owned, { url: `${origin}/a` })).titles).toEqual(['Owned']);
    expect(owned.byteLength).toBe(0); // moved to the thread: the crawler never reads a body after handing it over

    const shared = Buffer.from('xx<title>Slice</title>yy');
    const slice = shared.subarray(2, 22);
    expect((await pool.extract(slice, { url: `${origin}/b` })).titles).toEqual(['Slice']);
    expect(shared.toString()).toBe('xx<title>Slice</title>yy');
  });

  it('threads that cannot start fail every page with the reason (none is parsed here), and say so once', async () => {
    const reasons: string[] = [];
    const broken = createPageFactsPool(2, {
      thread: { script: 'process.exit(3)', eval: true },
      onDegraded: (err) => reasons.push(err.message),
    });
    try {
      const first = broken.extract(Buffer.from('<title>Not parsed</title>'), { url: `${origin}/c` });
      await expect(first).rejects.toThrow(PageAnalysisError);
      await expect(first).rejects.toThrow(/unavailable: its threads did not start \(exit code 3\)/);
      await expect(broken.extract(Buffer.from('<title>Again</title>'), { url: `${origin}/d` })).rejects.toThrow(
        /did not start/,
      );
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toMatch(/did not start \(exit code 3\)/);
    } finally {
      await broken.close();
    }
  });

  it('a thread that dies fails only the page it held, as too complex, and is replaced', async () => {
    // Says it is ready, then dies on its first page; its replacement (same program) does the same, so
    // every page fails cleanly instead of hanging, and the pool keeps answering.
    const script = `const { parentPort } = require('node:worker_threads');
      parentPort.on('message', () => process.exit(7));
      parentPort.postMessage({ ready: true });`;
    const crashing = createPageFactsPool(1, { thread: { script, eval: true } });
    try {
      await expect(crashing.extract(Buffer.from('<title>x</title>'), { url: `${origin}/e` })).rejects.toThrow(
        /^Page too complex to analyse: its analysis thread stopped \(exit code 7\)/,
      );
      await expect(crashing.extract(Buffer.from('<title>y</title>'), { url: `${origin}/f` })).rejects.toThrow(
        PageAnalysisError,
      );
    } finally {
      await crashing.close();
    }
  });

  it('refuses work after close', async () => {
    const closing = createPageFactsPool(1);
    await closing.close();
    await expect(closing.extract(Buffer.from('<title>z</title>'), { url: `${origin}/g` })).rejects.toThrow(/closed/);
  });
});

describe('page-facts thread pool: the hard bound of custom extraction', () => {
  const extractor = (key: string, kind: ExtractorSpec['kind'], expression: string): ExtractorSpec => ({
    key,
    kind,
    expression,
    output: 'TEXT',
    attribute: null,
    match: 'FIRST',
    regex: false,
    ignoreCase: false,
  });
  // `a.*b.*NOPE` passes the save-time check (regex-hazard.ts) but is cubic in the a's and b's of the text: over this
  // page's 7,200 characters it runs for minutes in one piece, which no check between extractors can cut short.
  const SPECS = [
    extractor('heading', 'CSS', 'h1'),
    extractor('price', 'XPATH', '//div[@class="price"]'),
    extractor('title', 'REGEX', '<title>([^<]*)</title>'),
    extractor('kettle', 'CONTAINS', 'Kettle'),
    extractor('slow', 'REGEX', 'a.*b.*NOPE'),
    extractor('after', 'CSS', '.price'),
  ];
  const BUDGET_MS = 100;
  const MARGIN_MS = 150;
  const slowPage = Buffer.from(
    '<html><head><title>Slow kettle</title></head><body><h1>Kettle</h1><div class="price">19.90</div>' +
      `<p>${'ab '.repeat(2_400)}</p><a href="/next">next</a></body></html>`,
  );
  const page = (n: number) =>
    Buffer.from(
      `<html><head><title>Page ${n}</title></head><body><h1>Kettle ${n}</h1>` +
        `<div class="price">${n}.00</div><a href="/p${n + 1}">more</a></body></html>`,
    );
  const context = (path: string, extraction = true): PageContext => ({
    url: `${origin}${path}`,
    status: 200,
    ...(extraction ? { extraction: { specs: SPECS, budgetMs: BUDGET_MS } } : {}),
  });

  it(
    'stops a thread stuck in one extractor past budget + margin; the page and those it held are not lost',
    { timeout: 20_000 },
    async () => {
      const stops: PageFactsStop[] = [];
      const bounded = createPageFactsPool(1, { stopMarginMs: MARGIN_MS, onStopped: (s) => stops.push(s) });
      try {
        // The thread is up (its start is not the page's time).
        expect((await bounded.extract(page(0), context('/warm'))).extraction?.slow).toEqual([]);

        const begun = performance.now();
        const slow = bounded.extract(Buffer.from(slowPage), context('/slow')).then((facts) => ({
          facts,
          ms: performance.now() - begun,
        }));
        // Sent behind it to the same (only) thread: with extractors, without, with again.
        const behind = [
          bounded.extract(page(1), context('/p1')),
          bounded.extract(page(2), context('/p2', false)),
          bounded.extract(page(3), context('/p3')),
        ];
        const { facts, ms } = await slow;
        // The regex alone runs for minutes; the page is back once the bound is reached (+ the watchdog's period, a
        // replacement thread's start and a second analysis there without that extractor; slack for a loaded machine).
        expect(ms).toBeGreaterThanOrEqual(BUDGET_MS + MARGIN_MS);
        expect(ms).toBeLessThan(BUDGET_MS + MARGIN_MS + 10_000);
        expect(facts.extraction).toEqual({
          heading: ['Kettle'],
          price: ['19.90'],
          title: ['Slow kettle'],
          kettle: true,
          slow: 'timeout',
          after: 'timeout', // not reached within the page's budget, as between extractors
        });
        // The page's other facts are all there.
        expect(facts.titles).toEqual(['Slow kettle']);
        expect(facts.links.map((l) => l.url)).toEqual([`${origin}/next`]);
        expect(facts).toStrictEqual(
          extractPageFacts(slowPage, {
            ...context('/slow'),
            extraction: { specs: SPECS, budgetMs: BUDGET_MS, timedOutFrom: 4 },
          }),
        );
        expect(stops).toHaveLength(1);
        expect(stops[0]).toMatchObject({ url: `${origin}/slow`, extractor: 4 });

        // The pages the stopped thread held are analysed by its replacement, with values: their extractors' clock
        // starts when a thread starts them, not while they waited behind the stuck page.
        const held = await Promise.all(behind);
        held.forEach((f, i) => {
          const n = i + 1;
          expect(f).toStrictEqual(extractPageFacts(page(n), context(`/p${n}`, n !== 2)));
        });
        expect(held[0].extraction).toMatchObject({ heading: ['Kettle 1'], slow: [], after: ['1.00'] });
        expect(held[1].extraction).toBeUndefined();
        expect(held[2].extraction).toMatchObject({ heading: ['Kettle 3'], slow: [], after: ['3.00'] });

        // And the pool keeps serving.
        const next = await bounded.extract(page(4), context('/p4'));
        expect(next.extraction).toMatchObject({ heading: ['Kettle 4'], slow: [] });
        expect(stops).toHaveLength(1);
      } finally {
        await bounded.close();
      }
    },
  );
});
