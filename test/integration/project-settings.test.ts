import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, gql, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject } from '../factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UPDATE =
  'mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { name settings { ' +
  'maxPages maxDepth crawlDelayMs respectRobots rankCountry rankDevice rankIncludeSubdomains } } }';

describe('updateProject', () => {
  it('renames and changes crawl and rank settings; null clears one; audits use maxPages', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const { id } = await aProject({ org });
    const res = await gql(
      t,
      UPDATE,
      {
        id,
        i: {
          name: 'Shop',
          settings: {
            maxPages: 50,
            maxDepth: 3,
            crawlDelayMs: 250,
            respectRobots: false,
            rankCountry: 'DE',
            rankDevice: 'mobile',
            rankIncludeSubdomains: true,
          },
        },
      },
      { cookie: org.owner.cookie },
    );
    expect(res.body.data.updateProject).toEqual({
      name: 'Shop',
      settings: {
        maxPages: 50,
        maxDepth: 3,
        crawlDelayMs: 250,
        respectRobots: false,
        rankCountry: 'de',
        rankDevice: 'mobile',
        rankIncludeSubdomains: true,
      },
    });
    const cleared = await gql(t, UPDATE, { id, i: { settings: { maxDepth: null } } }, { cookie: org.owner.cookie });
    expect(cleared.body.data.updateProject.settings).toMatchObject({ maxPages: 50, maxDepth: null });
    const key = await anApiKey(org);
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/v1/projects/${id}/audit`,
      headers: { authorization: `Bearer ${key}` },
    });
    const { rows } = await t.runtime.pool.query('SELECT max_pages FROM audit WHERE id = $1', [started.json().auditId]);
    expect(rows[0].max_pages).toBe(50);
  });

  it.each([
    [{ maxPages: 0 }, 'BAD_USER_INPUT'],
    [{ maxDepth: 99 }, 'BAD_USER_INPUT'],
    [{ crawlDelayMs: -1 }, 'BAD_USER_INPUT'],
    [{ rankCountry: 'usa' }, 'BAD_USER_INPUT'],
    [{ rankDevice: 'tablet' }, 'BAD_USER_INPUT'],
    [{ userAgent: 'a\nb' }, 'BAD_USER_INPUT'],
    [{ maxPages: 10_001 }, 'PLAN_LIMIT'],
  ])('refuses %j with %s', async (settings, code) => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const { id } = await aProject({ org });
    const res = await gql(t, UPDATE, { id, i: { settings } }, { cookie: org.owner.cookie });
    expect(res.body.errors?.[0].extensions?.code).toBe(code);
  });

  it("PRO keys cannot change projects; another organization's project is NOT_FOUND", async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const { id } = await aProject({ org });
    const key = await anApiKey(org);
    await t.runtime.pool.query('UPDATE "organization" SET plan = $1 WHERE id = $2', ['PRO', org.id]);
    const pro = await gql(t, UPDATE, { id, i: { name: 'x' } }, { authorization: `Bearer ${key}` });
    expect(pro.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const otherOrg = await anOrg(t, { plan: 'ENTERPRISE' });
    const res = await gql(t, UPDATE, { id, i: { name: 'x' } }, { cookie: otherOrg.owner.cookie });
    expect(res.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});

const SCOPE =
  'mutation($id: ID!, $i: UpdateProjectInput!) { updateProject(id: $id, input: $i) { settings { renderingMode ' +
  'includePatterns excludePatterns crawlSubdomains listMode startUrls queryParameters droppedParameters } } }';

describe('updateProject: crawl scope and rendering', () => {
  it('stores and returns scope and rendering settings; null clears one; the audit crawl options follow', async () => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const { id, url } = await aProject({ org });
    const host = new URL(url).host;
    const settings = {
      renderingMode: 'BROWSER',
      includePatterns: ['/**', ' /[?&]page=\\d+/i '],
      excludePatterns: ['**?sort=*', '/private/**'],
      crawlSubdomains: true,
      listMode: 'URLS',
      startUrls: [`https://${host}/a#frag`, `https://blog.${host}/b`, `https://${host}/a`],
      queryParameters: 'DROP_LISTED',
      droppedParameters: ['utm_source', 'sid'],
    };
    const res = await gql(t, SCOPE, { id, i: { settings } }, { cookie: org.owner.cookie });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateProject.settings).toEqual({
      ...settings,
      includePatterns: ['/**', '/[?&]page=\\d+/i'],
      // Normalized (no fragment) and deduplicated.
      startUrls: [`https://${host}/a`, `https://blog.${host}/b`],
    });
    const { rows } = await t.runtime.pool.query('SELECT settings FROM project WHERE id = $1', [id]);
    expect(rows[0].settings).toMatchObject({
      renderingMode: 'browser',
      listMode: 'urls',
      queryParameters: 'drop-listed',
    });
    const { auditCrawlOptions } = await import('../../src/audits/index.js');
    const options = auditCrawlOptions({ startUrl: url, maxPages: 10, settings: rows[0].settings, userAgent: 'ua' });
    expect(options.rendering).toBe('browser');
    expect(options.scope).toEqual({
      include: ['/**', '/[?&]page=\\d+/i'],
      exclude: ['**?sort=*', '/private/**'],
      includeSubdomains: true,
      list: { source: 'urls', urls: [`https://${host}/a`, `https://blog.${host}/b`] },
      queryParameters: 'drop-listed',
      droppedParameters: ['utm_source', 'sid'],
    });
    const cleared = await gql(
      t,
      SCOPE,
      { id, i: { settings: { listMode: null, startUrls: null, crawlSubdomains: null, includePatterns: null } } },
      { cookie: org.owner.cookie },
    );
    expect(cleared.body.data.updateProject.settings).toMatchObject({
      listMode: null,
      startUrls: [],
      crawlSubdomains: null,
      includePatterns: [],
      excludePatterns: ['**?sort=*', '/private/**'],
    });
  });

  const refusals: [string, (host: string) => Record<string, unknown>, string, RegExp][] = [
    [
      'a regex with a back-reference',
      () => ({ excludePatterns: ['/(a)\\1/'] }),
      'settings.excludePatterns',
      /back-reference/,
    ],
    [
      'a regex that does not compile',
      () => ({ includePatterns: ['/**', '/a(/'] }),
      'settings.includePatterns',
      /pattern 2/,
    ],
    [
      'a pattern over 300 characters',
      () => ({ excludePatterns: [`/${'a'.repeat(300)}`] }),
      'settings.excludePatterns',
      /300/,
    ],
    [
      '51 patterns',
      () => ({ excludePatterns: Array.from({ length: 51 }, (_, i) => `/p${i}`) }),
      'settings.excludePatterns',
      /at most 50/,
    ],
    ['an empty pattern', () => ({ excludePatterns: ['  '] }), 'settings.excludePatterns', /empty/],
    [
      'a start URL outside its include patterns',
      () => ({ includePatterns: ['/blog/**'] }),
      'settings.includePatterns',
      /must match the project.s start URL/,
    ],
    [
      'a start URL its excludes match',
      () => ({ excludePatterns: ['/**'] }),
      'settings.excludePatterns',
      /must not match/,
    ],
    [
      'a list URL of another site',
      () => ({ listMode: 'URLS', startUrls: ['https://other.example.org/'] }),
      'settings.startUrls.0',
      /must be on the project/,
    ],
    [
      'a list URL on a subdomain without crawlSubdomains',
      (h) => ({ startUrls: [`https://blog.${h}/`] }),
      'settings.startUrls.0',
      /must be on the project/,
    ],
    [
      'a list URL outside the patterns',
      (h) => ({ excludePatterns: ['/x/**'], startUrls: [`https://${h}/x/1`] }),
      'settings.startUrls.0',
      /inside the crawl scope/,
    ],
    [
      'a list URL on a refused address',
      () => ({ startUrls: ['http://169.254.169.254/latest'] }),
      'settings.startUrls.0',
      /./,
    ],
    [
      'a list URL that is not http',
      () => ({ startUrls: ['ftp://x.example.com/'] }),
      'settings.startUrls',
      /http or https/,
    ],
    ['list mode URLS without URLs', () => ({ listMode: 'URLS' }), 'settings.startUrls', /at least one/],
    ['a bad parameter name', () => ({ droppedParameters: ['a=b'] }), 'settings.droppedParameters', /parameter name/],
  ];
  it.each(refusals)('refuses %s, naming the field', async (_name, make, path, message) => {
    const org = await anOrg(t, { plan: 'ENTERPRISE' });
    const { id, url } = await aProject({ org });
    const res = await gql(t, SCOPE, { id, i: { settings: make(new URL(url).host) } }, { cookie: org.owner.cookie });
    const error = res.body.errors?.[0];
    expect(error?.extensions?.code).toBe('BAD_USER_INPUT');
    const detail = (error?.extensions as { details?: { path: string }[] } | undefined)?.details ?? [];
    expect(JSON.stringify(error)).toMatch(message);
    expect(detail.map((d) => d.path)).toContain(path);
    // Nothing was stored.
    const { rows } = await t.runtime.pool.query('SELECT settings FROM project WHERE id = $1', [id]);
    expect(rows[0].settings).toEqual({});
  });

  it('refuses more list URLs than the plan audits pages, and an enum value it does not know', async () => {
    const org = await anOrg(t, { plan: 'FREE' });
    const { id, url } = await aProject({ org });
    const many = Array.from({ length: 1001 }, (_, i) => `${url.replace(/\/$/, '')}/p${i}`);
    const res = await gql(t, SCOPE, { id, i: { settings: { startUrls: many } } }, { cookie: org.owner.cookie });
    expect(res.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(res.body.errors?.[0].message).toMatch(/at most \d+ entries/);
    const bad = await gql(t, SCOPE, { id, i: { settings: { listMode: 'ALL' } } }, { cookie: org.owner.cookie });
    expect(bad.body.errors?.[0].message).toMatch(/ALL/);
  });
});
