import type { PageFacts } from '../page/index.js';
import { getCheck, type Category, type CheckCode, type Severity } from './check-catalog.js';
import type { PageFetch } from './check.types.js';
import { runPageChecks } from './page-checks.js';

/** Response body of `POST /api/tools/meta-tags` (docs/free-tools.md). */
export interface MetaTagsReport {
  url: string;
  title: string | null;
  description: string | null;
  canonical: string | null;
  robots: string | null;
  viewport: string | null;
  lang: string | null;
  charset: string | null;
  openGraph: Record<string, string>;
  twitter: Record<string, string>;
  hreflang: { lang: string; href: string }[];
  jsonLd: unknown[];
  issues: { code: CheckCode; title: string; severity: Severity; category: Category }[];
}

/**
 * The free meta-tags tool: the document's head facts plus the failing single-page checks. `page`
 * carries what is known about the fetch (status, headers, redirects) when the tool fetched a URL;
 * for pasted HTML it defaults to a 200 response with no headers, so header-based checks do not apply.
 */
export function metaTagsReport(facts: PageFacts, page: Partial<PageFetch> = {}): MetaTagsReport {
  const fetch: PageFetch = {
    url: page.url ?? facts.url,
    finalUrl: page.finalUrl ?? facts.url,
    status: page.status ?? 200,
    depth: page.depth ?? 0,
    redirects: page.redirects ?? [],
    bytes: page.bytes ?? facts.htmlBytes,
    headers: page.headers ?? {},
    ...(page.responseMs !== undefined ? { responseMs: page.responseMs } : {}),
    ...(page.timedOut !== undefined ? { timedOut: page.timedOut } : {}),
  };
  const issues = runPageChecks(facts, fetch)
    .filter((result) => result.failed)
    .map((result) => {
      const check = getCheck(result.code);
      return {
        code: result.code,
        title: check.title,
        severity: result.severity ?? check.severity,
        category: check.category,
      };
    });
  const robots = [...facts.robots.meta, ...facts.robots.googlebotMeta.map((content) => `googlebot: ${content}`)];
  return {
    url: facts.url,
    title: facts.titles[0] ?? null,
    description: facts.descriptions[0] ?? null,
    canonical: facts.canonicals.find((canonical) => canonical.url !== null)?.url ?? facts.headerCanonical,
    robots:
      robots.length > 0 ? robots.join(', ') : facts.robots.header.length > 0 ? facts.robots.header.join(', ') : null,
    viewport: facts.viewport,
    lang: facts.lang,
    charset: facts.charset?.value ?? null,
    openGraph: facts.openGraph,
    twitter: facts.twitter,
    hreflang: facts.hreflang.map((entry) => ({ lang: entry.lang, href: entry.url ?? entry.href })),
    jsonLd: facts.jsonLd.map((block) => (block.ok ? block.value : { error: block.error })),
    issues,
  };
}
