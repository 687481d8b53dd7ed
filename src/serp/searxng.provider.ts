import { SerpHttpClient, endpointUrl } from './serp-http.js';
import type { SerpAdapterOptions } from './serp-http.js';
import { normalizeSerpQuery } from './serp-query.js';
import { SerpResultCollector } from './serp-result-collector.js';
import type { SerpProvider, SerpQuery, SerpSearchOptions, SerpSnapshot } from './serp.types.js';

/** Results per SearXNG page vary with the engines that answered; this only sizes the page budget. */
const TYPICAL_PAGE_SIZE = 10;

/**
 * A self-hosted SearXNG instance: GET /search?q&format=json&language=<lang>-<COUNTRY>&pageno (1-based).
 * Results are `results[].{url, title}` without ranks, so a position is the index across pages. The
 * instance must list `json` under `search.formats` in settings.yml; otherwise it answers 403.
 * SearXNG has no device parameter and aggregates several engines: positions approximate Google's.
 */
export class SearxngProvider implements SerpProvider {
  readonly name = 'searxng' as const;
  private readonly http: SerpHttpClient;

  constructor(private readonly options: SerpAdapterOptions) {
    this.http = new SerpHttpClient({
      provider: this.name,
      fetchImpl: options.fetchImpl,
      timeoutMs: options.timeoutMs,
      secrets: [],
      statusHint: (status) =>
        status === 403
          ? 'the JSON output format is disabled on this SearXNG instance (add "json" to search.formats in settings.yml)'
          : undefined,
    });
  }

  async search(input: SerpQuery, opts: SerpSearchOptions = {}): Promise<SerpSnapshot> {
    const query = normalizeSerpQuery(this.name, input);
    const collector = new SerpResultCollector(query.depth);
    // Pages can be shorter than 10 results, so allow twice the nominal number before giving up.
    const maxPages = 2 * Math.ceil(query.depth / TYPICAL_PAGE_SIZE);
    const language = `${query.language.split('-')[0].toLowerCase()}-${query.country.toUpperCase()}`;
    let requests = 0;
    for (let pageno = 1; pageno <= maxPages && !collector.full; pageno += 1) {
      const url = endpointUrl(this.options.baseUrl, '/search');
      url.searchParams.set('q', query.keyword);
      url.searchParams.set('format', 'json');
      url.searchParams.set('language', language);
      url.searchParams.set('pageno', String(pageno));
      url.searchParams.set('categories', 'general');
      requests += 1;
      const results = this.pageResults(await this.http.requestJson({ url, method: 'GET', signal: opts.signal }));
      let added = 0;
      for (const item of results) if (collector.add(item?.url, item?.title)) added += 1;
      // An empty page is the end; a page of nothing new means the engines are repeating themselves.
      if (added === 0) break;
    }
    return { provider: this.name, query, results: collector.results, requests, fetchedAt: new Date() };
  }

  private pageResults(body: unknown): Array<{ url?: unknown; title?: unknown }> {
    return this.http.resultList(this.http.jsonObject(body), 'results');
  }
}
