import { dataForSeoLocationCode } from './dataforseo-locations.js';
import { SerpHttpClient, endpointUrl } from './serp-http.js';
import type { SerpAdapterOptions } from './serp-http.js';
import { SerpProviderError } from './serp-provider.error.js';
import { normalizeSerpQuery } from './serp-query.js';
import { SerpResultCollector } from './serp-result-collector.js';
import type { SerpProvider, SerpQuery, SerpSearchOptions, SerpSnapshot } from './serp.types.js';

export const DATAFORSEO_BASE_URL = 'https://api.dataforseo.com';
const LIVE_ADVANCED_PATH = '/v3/serp/google/organic/live/advanced';
const OK = 20000;

interface DataForSeoTask {
  status_code?: unknown;
  status_message?: unknown;
  result?: Array<{ items?: unknown } | null> | null;
}

interface DataForSeoItem {
  type?: unknown;
  rank_group?: unknown;
  rank_absolute?: unknown;
  url?: unknown;
  title?: unknown;
}

/**
 * DataForSEO Live Google Organic SERP (advanced): POST /v3/serp/google/organic/live/advanced with HTTP
 * Basic auth and a one-task JSON array. One call covers the whole depth (DataForSEO pages through Google
 * itself and bills per 10 results). Success is `status_code` 20000 at both the request and the task level;
 * organic results are `tasks[0].result[0].items[]` of type "organic", ranked by `rank_group`.
 */
export class DataForSeoProvider implements SerpProvider {
  readonly name = 'dataforseo' as const;
  private readonly http: SerpHttpClient;
  private readonly authorization: string;

  constructor(
    login: string,
    password: string,
    private readonly options: SerpAdapterOptions,
  ) {
    this.authorization = `Basic ${Buffer.from(`${login}:${password}`, 'utf8').toString('base64')}`;
    this.http = new SerpHttpClient({
      provider: this.name,
      fetchImpl: options.fetchImpl,
      timeoutMs: options.timeoutMs,
      secrets: [password, this.authorization.slice('Basic '.length)],
    });
  }

  async search(input: SerpQuery, opts: SerpSearchOptions = {}): Promise<SerpSnapshot> {
    const query = normalizeSerpQuery(this.name, input);
    const locationCode = dataForSeoLocationCode(query.country);
    if (locationCode === null) {
      throw new SerpProviderError(
        this.name,
        `${this.name}: invalid query: no DataForSEO location_code known for country "${query.country}"`,
        { code: 'INVALID_QUERY', retryable: false },
      );
    }
    const task = {
      // DataForSEO URL-decodes the keyword ('+' becomes a space), so literal % and + must be escaped.
      keyword: query.keyword.replace(/%/g, '%25').replace(/\+/g, '%2B'),
      location_code: locationCode,
      language_code: query.language,
      device: query.device,
      depth: query.depth,
    };
    const body = await this.http.requestJson({
      url: endpointUrl(this.options.baseUrl, LIVE_ADVANCED_PATH),
      method: 'POST',
      headers: { authorization: this.authorization },
      json: [task],
      signal: opts.signal,
    });
    const collector = new SerpResultCollector(query.depth);
    for (const item of this.organicItems(body)) collector.add(item.url, item.title);
    return { provider: this.name, query, results: collector.results, requests: 1, fetchedAt: new Date() };
  }

  private organicItems(body: unknown): DataForSeoItem[] {
    const envelope = this.http.jsonObject(body) as { status_code?: unknown; status_message?: unknown; tasks?: unknown };
    this.checkStatus(envelope.status_code, envelope.status_message, 'request');
    if (!Array.isArray(envelope.tasks) || envelope.tasks.length === 0) throw this.http.malformed('no tasks');
    const task = envelope.tasks[0] as DataForSeoTask | null;
    if (task === null || typeof task !== 'object') throw this.http.malformed('task is not an object');
    this.checkStatus(task.status_code, task.status_message, 'task');
    const items = task.result?.[0]?.items;
    if (items === undefined || items === null) return [];
    if (!Array.isArray(items)) throw this.http.malformed('items is not an array');
    return (items as Array<DataForSeoItem | null>)
      .filter((item): item is DataForSeoItem => item !== null && typeof item === 'object' && item.type === 'organic')
      .sort((a, b) => rank(a.rank_group, a.rank_absolute) - rank(b.rank_group, b.rank_absolute));
  }

  /** DataForSEO answers most failures with HTTP 200 and an internal code; 5xxxx are server-side. */
  private checkStatus(code: unknown, message: unknown, level: 'request' | 'task'): void {
    if (code === OK) return;
    const text = typeof message === 'string' ? this.http.providerText(message) : 'no status_message';
    const numeric = typeof code === 'number' ? code : Number.NaN;
    throw this.http.fail(`${level} status_code ${String(code)}: ${text}`, {
      code: 'PROVIDER_ERROR',
      status: 200,
      retryable: numeric >= 50000 || /rate.?limit|too many requests|try again/i.test(text),
    });
  }
}

function rank(group: unknown, absolute: unknown): number {
  const value = typeof group === 'number' ? group : absolute;
  return typeof value === 'number' && Number.isFinite(value) ? value : Number.MAX_SAFE_INTEGER;
}
