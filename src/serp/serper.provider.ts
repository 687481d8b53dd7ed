import { SerpHttpClient, endpointUrl } from './serp-http.js';
import type { SerpAdapterOptions } from './serp-http.js';
import { normalizeSerpQuery } from './serp-query.js';
import { SerpResultCollector } from './serp-result-collector.js';
import type { SerpProvider, SerpQuery, SerpSearchOptions, SerpSnapshot } from './serp.types.js';

export const SERPER_BASE_URL = 'https://google.serper.dev';
const PAGE_SIZE = 10;

/**
 * Serper (serper.dev): POST /search, header X-API-KEY, JSON body {q, gl, hl, num, page} with 1-based pages.
 * Organic results are `organic[].{position, link, title}`; errors are `{"message": "...", "statusCode": n}`.
 * Serper documents no device parameter, so desktop results are returned for mobile queries too.
 */
export class SerperProvider implements SerpProvider {
  readonly name = 'serper' as const;
  private readonly http: SerpHttpClient;

  constructor(
    private readonly apiKey: string,
    private readonly options: SerpAdapterOptions,
  ) {
    this.http = new SerpHttpClient({
      provider: this.name,
      fetchImpl: options.fetchImpl,
      timeoutMs: options.timeoutMs,
      secrets: [apiKey],
    });
  }

  async search(input: SerpQuery, opts: SerpSearchOptions = {}): Promise<SerpSnapshot> {
    const query = normalizeSerpQuery(this.name, input);
    const collector = new SerpResultCollector(query.depth);
    const pages = Math.ceil(query.depth / PAGE_SIZE);
    const url = endpointUrl(this.options.baseUrl, '/search');
    let requests = 0;
    for (let page = 1; page <= pages && !collector.full; page += 1) {
      requests += 1;
      const body = await this.http.requestJson({
        url,
        method: 'POST',
        headers: { 'x-api-key': this.apiKey },
        json: { q: query.keyword, gl: query.country, hl: query.language, num: PAGE_SIZE, page },
        signal: opts.signal,
      });
      const organic = this.organicResults(body);
      if (organic.length === 0) break;
      for (const item of organic) collector.add(item?.link, item?.title);
      // Serper gives no "next page" signal: a short page is the last one.
      if (organic.length < PAGE_SIZE) break;
    }
    return { provider: this.name, query, results: collector.results, requests, fetchedAt: new Date() };
  }

  private organicResults(body: unknown): Array<{ link?: unknown; title?: unknown }> {
    return this.http.resultList(this.http.jsonObject(body), 'organic');
  }
}
