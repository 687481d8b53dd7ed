import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROUTES, STREAM_ROUTES } from '../../facades/server.js';
import {
  SURFACE_BASE,
  documentSurfaceOf,
  toOpenApiPath,
  type DocumentSurface,
} from '../../facades/openapi/document.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { CHROMIUM } from '../support/chromium.js';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

let t: TestApp;
let origin: string;
let browser: Browser;
let context: BrowserContext;
const outside: string[] = []; // requests that tried to leave 127.0.0.1 (aborted)
const problems: string[] = []; // page errors and CSP violations

beforeAll(async () => {
  t = await createTestApp({ ANONYMOUS_RATE_PER_MINUTE: '1000' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  context = await browser.newContext();
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  // CDP-injected, so the pages' CSP does not apply to it; it records what the CSP blocks.
  await context.addInitScript({
    content:
      "window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => " +
      "window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));",
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** `inlineStyles`: the explorer's editor (monaco) writes <style> elements; its page alone allows them. */
async function open(path: string, { inlineStyles = false } = {}): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (err) => problems.push(`${path}: ${err.message}`));
  const res = await page.goto(`${origin}${path}`);
  expect(res?.status()).toBe(200);
  const csp = res?.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(csp).not.toMatch(/unsafe-eval|https?:/);
  if (inlineStyles) expect(csp).toMatch(/style-src 'self' 'unsafe-inline'(;|$)/);
  else expect(csp).not.toMatch(/unsafe-inline/);
  return page;
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => ((globalThis as any).__csp ?? []) as string[]);
}

const expectedOperations = (surface: DocumentSurface) =>
  [...ROUTES, ...STREAM_ROUTES]
    .filter((r) => documentSurfaceOf(r) === surface)
    .map((r) => `${r.method} ${toOpenApiPath(r.url.slice(SURFACE_BASE[surface].length))}`)
    .sort();

async function listedOperations(page: Page): Promise<string[]> {
  const ops = await page.$$eval('.opblock', (blocks) =>
    blocks.map(
      (b) =>
        `${b.querySelector('.opblock-summary-method')?.textContent?.trim()} ` +
        `${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
    ),
  );
  return ops.sort();
}

describe('/docs: the interactive reference, offline', () => {
  it('lists both documents and every operation of each surface', async () => {
    const page = await open('/docs');
    const links = await page.$$eval('#api-documents a', (as) => as.map((a) => a.getAttribute('href')));
    expect(links).toEqual(expect.arrayContaining(['/api/v1/openapi.json', '/api/openapi.json', '/graphql/explorer']));

    await page.waitForSelector('.swagger-ui .info .title', { timeout: 20_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toMatch(/Surface A/);
    await page.waitForSelector('.opblock');
    expect(await listedOperations(page)).toEqual(expectedOperations('A'));

    await page.selectOption('.topbar select', {
      label: await page.$eval('.topbar select option:nth-child(2)', (o) => o.textContent ?? ''),
    });
    await page.waitForFunction(
      () => /Surface B/.test((globalThis as any).document.querySelector('.swagger-ui .info .title')?.textContent ?? ''),
      undefined,
      { timeout: 20_000 },
    );
    await page.waitForSelector('.opblock');
    expect(await listedOperations(page)).toEqual(expectedOperations('B'));
    // No rendering or resolution errors in either document.
    expect(await page.$$('.swagger-ui .errors-wrapper')).toHaveLength(0);
    expect(await cspViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it('the explorer (GraphiQL 5, a lazy route of the app) shows its editor and runs a query on /graphql', async () => {
    const page = await open('/graphql/explorer', { inlineStyles: true });
    await page.waitForSelector('.graphiql-container .graphiql-query-editor .monaco-editor', { timeout: 30_000 });
    const response = page.waitForResponse(
      (r) =>
        r.url() === `${origin}/graphql` &&
        r.request().method() === 'POST' &&
        (r.request().postData() ?? '').includes('metaTags'),
    );
    await page.click('.graphiql-execute-button');
    expect((await response).status()).toBe(200);
    // monaco lays out spaces as no-break spaces.
    await page.waitForFunction(
      () =>
        ((globalThis as any).document.querySelector('.graphiql-response')?.textContent ?? '')
          .replace(/\u00a0/g, ' ')
          .includes('"title": "Hello"'),
      undefined,
      { timeout: 20_000 },
    );
    expect(await cspViolations(page)).toEqual([]);
    // No query tab, header or key is kept in the browser's storage.
    expect(await page.evaluate(() => (globalThis as any).localStorage.length)).toBe(0);
    await page.close();
  }, 60_000);

  it('nothing left 127.0.0.1 and no page error occurred', () => {
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });
});
