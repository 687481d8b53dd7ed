import { SerpHttpClient, endpointUrl } from './serp-http.js';
import type { SerpAdapterOptions } from './serp-http.js';
import { normalizeSerpQuery } from './serp-query.js';
import { SerpResultCollector } from './serp-result-collector.js';
import type { SerpProvider, SerpQuery, SerpSearchOptions, SerpSnapshot } from './serp.types.js';

export const SERPAPI_BASE_URL = 'https://serpapi.com';
/** Google serves 10 results per request since it dropped num=100, so each page is one (billed) call. */
const PAGE_SIZE = 10;
/** SerpApi answers an empty Google SERP with HTTP 200 and this `error` text: that is zero results, not a failure. */
const NO_RESULTS = /hasn't returned any results/i;

interface SerpApiPage {
  error?: unknown;
  organic_results?: unknown;
  serpapi_pagination?: { next?: unknown } | null;
}

/**
 * SerpApi Google Search API: GET /search.json?engine=google&q&gl&hl&device&num=10&start&api_key.
 * Organic results are `organic_results[].{position, link, title}`; errors come as `{"error": "..."}`.
 */
export class SerpApiProvider implements SerpProvider {
  readonly name = 'serpapi' as const;
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
    let requests = 0;
    for (let page = 0; page < pages && !collector.full; page += 1) {
      const url = endpointUrl(this.options.baseUrl, '/search.json');
      const params = url.searchParams;
      params.set('engine', 'google');
      params.set('q', query.keyword);
      params.set('gl', query.country);
      params.set('hl', query.language);
      params.set('device', query.device);
      params.set('num', String(PAGE_SIZE));
      params.set('start', String(page * PAGE_SIZE));
      params.set('api_key', this.apiKey);
      requests += 1;
      const body = (await this.http.requestJson({ url, method: 'GET', signal: opts.signal })) as SerpApiPage | null;
      const organic = this.organicResults(body);
      if (organic.length === 0) break;
      for (const item of organic) collector.add(item?.link, item?.title);
      if (!this.hasNextPage(body, organic.length)) break;
    }
    return { provider: this.name, query, results: collector.results, requests, fetchedAt: new Date() };
  }

  private organicResults(answer: SerpApiPage | null): Array<{ link?: unknown; title?: unknown; position?: unknown }> {
    const body = this.http.jsonObject(answer) as SerpApiPage;
    if (typeof body.error === 'string' && !NO_RESULTS.test(body.error)) {
      throw this.http.fail(`error: ${this.http.providerText(body.error)}`, {
        code: 'PROVIDER_ERROR',
        status: 200,
        retryable: /try again/i.test(body.error),
      });
    }
    // SerpApi numbers each page's results; keep its order in case the array is not sorted.
    return [...this.http.resultList<{ position?: unknown }>(body as Record<string, unknown>, 'organic_results')].sort(
      (a, b) => rank(a?.position) - rank(b?.position),
    );
  }

  /** SerpApi's pagination block is authoritative when present (Google pages are sometimes short). */
  private hasNextPage(body: SerpApiPage | null, count: number): boolean {
    const pagination = body?.serpapi_pagination;
    if (pagination && typeof pagination === 'object')
      return typeof pagination.next === 'string' && pagination.next !== '';
    return count >= PAGE_SIZE;
  }
}

function rank(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : Number.MAX_SAFE_INTEGER;
}
