import { RENDERING_CHECK_CODES, runPageChecks, type PageFetch } from '../../src/seo/checks/index.js';
import { extractPageFacts } from '../../src/seo/page/index.js';

/** One failed RENDER_* result: its code, the page and its evidence. */
export interface RenderedOccurrence {
  code: string;
  url: string;
  evidence: Record<string, unknown> | null;
}

/**
 * Occurrences of the rendering checks, which only a browser gives (audit-rendering.test.ts audits a client-rendered
 * site in headless Chromium): evidence from the page evaluators fed a raw and a rendered document, both read by the
 * real extractor, as the crawler does.
 */
export function renderedOccurrences(): RenderedOccurrence[] {
  const url = 'https://render.test/app';
  const headers = { 'content-type': 'text/html; charset=utf-8' };
  const doc = (head: string, body: string) =>
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
  const words = Array.from({ length: 120 }, (_, i) => `oak${i}`).join(' ');
  const rendered = doc(
    '<title>Oak dining tables | Render Shop</title><meta name="description" content="Solid oak tables, made to ' +
      'order in our workshop and delivered across the country.">' +
      '<link rel="canonical" href="https://render.test/tables"><meta name="robots" content="noindex, nofollow">',
    `<h1>Oak dining tables</h1><p>${words}</p><a href="/tables/round">Round tables</a>`,
  );
  const raws = [
    doc('<title>Loading the shop</title><link rel="canonical" href="https://render.test/app">', '<h1>Shop</h1>'),
    doc('', '<div id="root"></div>'),
  ];
  const occurrences: RenderedOccurrence[] = [];
  for (const raw of raws) {
    const page: PageFetch = {
      url,
      finalUrl: url,
      status: 200,
      depth: 0,
      redirects: [],
      bytes: raw.length,
      headers,
      rendering: {
        raw: extractPageFacts(raw, { url, headers, status: 200 }),
        renderMs: 640,
        consoleErrors: ['TypeError: cart is undefined'],
        consoleErrorCount: 1,
        failedRequests: [{ url: 'https://render.test/api/stock', reason: 'HTTP 500' }],
        failedRequestCount: 1,
        blockedByRobots: ['https://render.test/private/app.js'],
      },
    };
    const facts = extractPageFacts(rendered, { url, headers, status: 200 });
    for (const result of runPageChecks(facts, page))
      if (result.failed && RENDERING_CHECK_CODES.has(result.code))
        occurrences.push({ code: result.code, url, evidence: result.evidence ?? null });
  }
  return occurrences;
}
