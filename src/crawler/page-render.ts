import type { SafeHttpClient } from '../platform/safe-http/index.js';
import type { PageFetch } from '../seo/checks/index.js';
import type { PageFacts } from '../seo/page/index.js';
import type { PageRenderer, RenderInput, RenderOutput } from './browser/index.js';
import type { PageFactsExtract } from './page-facts-pool.js';

/** Byte order mark of UTF-8: the rendered DOM is decoded as UTF-8 whatever its meta charset says. */
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export type Rendered = { output: RenderOutput; facts: PageFacts } | { error: string };

/** What rendering a page needs of the crawl (one object for the crawl, not one per page). */
export interface PageRendering {
  renderer: PageRenderer;
  extract: PageFactsExtract;
  /** The site's own URLs robots.txt disallows are not loaded, as a search engine's renderer would not. */
  allowed: RenderInput['allowed'];
  /** What the scope excludes is not fetched as a resource of a rendered page either. */
  excluded: RenderInput['excluded'];
  /** The crawl's client, under its politeness: a login crawl's page fetches its data signed in. */
  client: SafeHttpClient;
  signal: AbortSignal | undefined;
}

/** The page rendered in the browser from the body the crawler received, and its facts; or why it was not. */
export async function renderPage(ctx: PageRendering, body: Buffer, fetch: PageFetch, finalUrl: URL): Promise<Rendered> {
  try {
    const output = await ctx.renderer.render({
      url: fetch.finalUrl,
      status: fetch.status,
      headers: fetch.headers,
      body,
      allowed: ctx.allowed,
      excluded: ctx.excluded,
      client: ctx.client,
      signal: ctx.signal,
    });
    // The serialized DOM is UTF-8 whatever the document declared: a BOM tells the extractor so.
    const html = Buffer.concat([UTF8_BOM, Buffer.from(output.html, 'utf8')]);
    const facts = await ctx.extract(html, { url: finalUrl.href, headers: fetch.headers, status: fetch.status });
    return { output, facts: { ...facts, htmlBytes: Math.max(0, facts.htmlBytes - UTF8_BOM.length) } };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** The rendered facts become the page's (the raw ones kept beside them); a failed render keeps the raw facts. */
export function withRendering(raw: PageFacts, rendered: Rendered, fetch: PageFetch): PageFacts {
  if ('error' in rendered) {
    fetch.renderError = rendered.error;
    return raw;
  }
  const { output } = rendered;
  fetch.rendering = {
    raw,
    renderMs: output.renderMs,
    consoleErrors: output.consoleErrors,
    consoleErrorCount: output.consoleErrorCount,
    failedRequests: output.failedRequests,
    failedRequestCount: output.failedRequestCount,
    blockedByRobots: output.blockedByRobots,
  };
  return rendered.facts;
}
