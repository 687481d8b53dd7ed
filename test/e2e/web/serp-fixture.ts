import http from 'node:http';

/**
 * The port of the local SERP fixture: the platform under test is started with SERP_PROVIDER=searxng and
 * SERP_BASE_URL on it (playwright.config.ts), so rank checks ask this fixture, never a real search engine.
 * E2E_PORT + 1000 unless E2E_SERP_PORT says otherwise.
 */
export function serpFixturePort(): number {
  return Number(process.env.E2E_SERP_PORT ?? Number(process.env.E2E_PORT ?? 3197) + 1000);
}

/** What the platform under test is started with, so that its rank checks ask the fixture. */
export const SERP_FIXTURE_ENV = {
  SERP_PROVIDER: 'searxng',
  SERP_BASE_URL: `http://127.0.0.1:${serpFixturePort()}`,
  SERP_RETRY_DELAY_MS: '500',
} as const;

/** Result URLs for a query (position = index + 1), or an HTTP status to answer instead. */
export type SerpAnswer = string[] | { status: number };

/**
 * A server speaking SearXNG's JSON protocol (GET /search?q&format=json&pageno → { results: [{ url, title }] }):
 * page 1 is what `answer` returns, later pages are empty (the end of the results). A spec starts it when it needs
 * positions; in other specs a rank check fails (connection refused), as it would with the provider down.
 */
export async function startSerpFixture(answer: (q: string) => SerpAnswer): Promise<{ close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const got = url.pathname === '/search' ? answer(q) : { status: 404 };
    if (!Array.isArray(got)) return res.writeHead(got.status, { 'content-type': 'text/plain' }).end('refused');
    const results =
      url.searchParams.get('pageno') === '1' ? got.map((u, i) => ({ url: u, title: `Result ${i + 1}` })) : [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(serpFixturePort(), '127.0.0.1', () => resolve());
  });
  return { close: () => new Promise<void>((r) => server.close(() => r())) };
}

export interface SerpFixture {
  /** Sets the ranked URLs (best first) for a keyword (compared lower-case); unknown keywords get no results. */
  rank(keyword: string, urls: string[]): void;
  close(): Promise<void>;
}

/** The fixture with answers set per keyword as a spec goes. */
export async function startRankingSerpFixture(): Promise<SerpFixture> {
  const answers = new Map<string, string[]>();
  const server = await startSerpFixture((q) => answers.get(q) ?? []);
  return { rank: (keyword, urls) => answers.set(keyword.toLowerCase(), urls), close: () => server.close() };
}
