import type { FakeHandler, FakeOrganic, FakeReply } from './serp-test-server.js';

/*
 * Fake providers that speak each provider's documented protocol: they check the request the way the
 * real service does (path, method, credentials) and answer in the documented response shape.
 */

export const SERPAPI_INVALID_KEY = 'Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key';

/** SerpApi Google Search: GET /search.json, api_key in the query, `organic_results` with absolute positions. */
export function fakeSerpApi(serp: FakeOrganic[], opts: { apiKey: string; pagination?: boolean }): FakeHandler {
  return (req): FakeReply => {
    if (req.method !== 'GET' || req.path !== '/search.json') return { status: 404, body: { error: 'Not found' } };
    if (req.query.get('api_key') !== opts.apiKey) return { status: 401, body: { error: SERPAPI_INVALID_KEY } };
    const q = req.query.get('q');
    if (!q) return { status: 400, body: { error: 'Missing query `q` parameter.' } };
    const start = Number(req.query.get('start') ?? '0');
    const num = Number(req.query.get('num') ?? '10');
    const parameters = {
      engine: req.query.get('engine'),
      q,
      gl: req.query.get('gl'),
      hl: req.query.get('hl'),
      device: req.query.get('device'),
      num: String(num),
      start,
    };
    const page = serp.slice(start, start + num);
    if (page.length === 0) {
      return {
        body: {
          search_metadata: { id: 'empty', status: 'Success' },
          search_parameters: parameters,
          search_information: { organic_results_state: 'Fully empty' },
          error: "Google hasn't returned any results for this query.",
        },
      };
    }
    const more = start + num < serp.length;
    return {
      body: {
        search_metadata: { id: `page-${start}`, status: 'Success', total_time_taken: 0.5 },
        search_parameters: parameters,
        search_information: { organic_results_state: 'Results for exact spelling', total_results: 1234 },
        organic_results: page.map((result, i) => ({
          position: start + i + 1,
          title: result.title,
          link: result.url,
          displayed_link: result.url,
          snippet: 'snippet',
        })),
        ...(opts.pagination === false
          ? {}
          : {
              serpapi_pagination: {
                current: start / num + 1,
                ...(more ? { next: `https://serpapi.com/search.json?engine=google&q=x&start=${start + num}` } : {}),
              },
            }),
      },
    };
  };
}

/** Serper: POST /search, X-API-KEY header, JSON body {q, gl, hl, num, page}; `organic` per page. */
export function fakeSerper(serp: FakeOrganic[], opts: { apiKey: string }): FakeHandler {
  return (req): FakeReply => {
    if (req.method !== 'POST' || req.path !== '/search')
      return { status: 404, body: { message: 'Not Found', statusCode: 404 } };
    if (req.headers['x-api-key'] !== opts.apiKey)
      return { status: 403, body: { message: 'Unauthorized.', statusCode: 403 } };
    let body: { q?: string; gl?: string; hl?: string; num?: number; page?: number };
    try {
      body = JSON.parse(req.body) as typeof body;
    } catch {
      return { status: 400, body: { message: 'Invalid JSON', statusCode: 400 } };
    }
    if (!body.q) return { status: 400, body: { message: 'Missing query', statusCode: 400 } };
    const num = body.num ?? 10;
    const page = body.page ?? 1;
    const slice = serp.slice((page - 1) * num, page * num);
    return {
      body: {
        searchParameters: { q: body.q, gl: body.gl, hl: body.hl, type: 'search', num, page, engine: 'google' },
        organic: slice.map((result, i) => ({
          title: result.title,
          link: result.url,
          snippet: 'snippet',
          position: i + 1,
        })),
        credits: 1,
      },
    };
  };
}

export const DATAFORSEO_UNAUTHORIZED =
  'You are not authorized to access this resource. See your login details here: https://app.dataforseo.com/api-access';

/**
 * DataForSEO live/advanced: POST a one-task array with Basic auth; the SERP comes back in one response with
 * SERP features (featured snippet, people also ask) interleaved among the organic items.
 */
export function fakeDataForSeo(serp: FakeOrganic[], opts: { login: string; password: string }): FakeHandler {
  const expected = `Basic ${Buffer.from(`${opts.login}:${opts.password}`).toString('base64')}`;
  const envelope = (statusCode: number, statusMessage: string, tasks: unknown[] | null) => ({
    version: '0.1.20250101',
    status_code: statusCode,
    status_message: statusMessage,
    time: '5.1 sec.',
    cost: 0.002,
    tasks_count: tasks?.length ?? 0,
    tasks_error: 0,
    tasks,
  });
  return (req): FakeReply => {
    if (req.method !== 'POST' || req.path !== '/v3/serp/google/organic/live/advanced') {
      return { status: 404, body: envelope(40400, 'Not Found.', null) };
    }
    if (req.headers.authorization !== expected) {
      return { status: 401, body: envelope(40100, DATAFORSEO_UNAUTHORIZED, null) };
    }
    const tasks = JSON.parse(req.body) as Array<Record<string, unknown>>;
    if (!Array.isArray(tasks) || tasks.length !== 1) {
      return { body: envelope(40000, 'You can set only one task at a time.', null) };
    }
    const task = tasks[0];
    const depth = typeof task.depth === 'number' ? task.depth : 100;
    const items: unknown[] = [];
    let absolute = 0;
    serp.slice(0, depth).forEach((result, i) => {
      if (i === 0)
        items.push({
          type: 'featured_snippet',
          rank_group: 1,
          rank_absolute: ++absolute,
          url: 'https://snippet.test/',
        });
      if (i === 3) items.push({ type: 'people_also_ask', rank_group: 1, rank_absolute: ++absolute, items: [] });
      items.push({
        type: 'organic',
        rank_group: i + 1,
        rank_absolute: ++absolute,
        position: 'left',
        domain: new URL(result.url).hostname,
        title: result.title,
        url: result.url,
        breadcrumb: result.url,
        description: 'snippet',
      });
    });
    return {
      body: envelope(20000, 'Ok.', [
        {
          id: '01010101-0000-0000-0000-000000000000',
          status_code: 20000,
          status_message: 'Ok.',
          time: '5.0 sec.',
          cost: 0.002,
          result_count: 1,
          path: ['v3', 'serp', 'google', 'organic', 'live', 'advanced'],
          data: { api: 'serp', function: 'live', se: 'google', se_type: 'organic', ...task },
          result: [
            {
              keyword: task.keyword,
              type: 'organic',
              se_domain: 'google.com',
              location_code: task.location_code,
              language_code: task.language_code,
              check_url: 'https://www.google.com/search?q=x',
              datetime: '2025-01-01 00:00:00 +00:00',
              spell: null,
              item_types: ['featured_snippet', 'people_also_ask', 'organic'],
              se_results_count: 1000,
              items_count: items.length,
              items: items.length === 0 ? null : items,
            },
          ],
        },
      ]),
    };
  };
}

/** SearXNG: GET /search?format=json; 403 when the instance has the JSON format disabled. */
export function fakeSearxng(serp: FakeOrganic[], opts: { jsonEnabled?: boolean; pageSize?: number } = {}): FakeHandler {
  const pageSize = opts.pageSize ?? 10;
  return (req): FakeReply => {
    if (req.method !== 'GET' || req.path !== '/search') return { status: 404, body: 'Not Found' };
    if (req.query.get('format') !== 'json' || opts.jsonEnabled === false) return { status: 403, body: 'Forbidden' };
    const pageno = Number(req.query.get('pageno') ?? '1');
    const slice = serp.slice((pageno - 1) * pageSize, pageno * pageSize);
    return {
      body: {
        query: req.query.get('q'),
        number_of_results: 0,
        results: slice.map((result, i) => ({
          url: result.url,
          title: result.title,
          content: 'snippet',
          engine: 'google',
          engines: ['google', 'duckduckgo'],
          positions: [i + 1],
          score: 2,
          category: 'general',
        })),
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      },
    };
  };
}
