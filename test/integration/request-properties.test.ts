/**
 * Property tests (fast-check) through the real HTTP stack: arbitrary JSON bodies and query values on every
 * POST route and paging parameter of the route tables get 2xx, or a 4xx in the documented `{ error, code }`
 * shape (with `details` on 400) — never a 500.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, STREAM_ROUTES } from '../../facades/server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { anApiKey, anOrg, aProject, type Org } from '../factories.js';

let t: TestApp;
let org: Org;
let key: string;
let projectId: string;
beforeAll(async () => {
  // A site that never answers fetches: the tools' URL inputs must not leave the machine (127.0.0.1 is refused).
  t = await createTestApp({ ANONYMOUS_RATE_PER_MINUTE: '100000', AUTH_FAILURES_PER_MINUTE: '100000' });
  org = await anOrg(t, { plan: 'ENTERPRISE' });
  key = await anApiKey(org);
  projectId = (await aProject({ org })).id;
});
afterAll(() => t.close());

const CODES: Record<number, string[]> = {
  400: ['BAD_USER_INPUT'],
  401: ['UNAUTHENTICATED'],
  403: ['FORBIDDEN', 'PLAN_LIMIT'],
  404: ['NOT_FOUND'],
  413: ['PAYLOAD_TOO_LARGE'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  429: ['RATE_LIMITED'],
};

function expectDocumented(res: { statusCode: number; body: string; json(): any }, label: string) {
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (res.statusCode < 400) return;
  const body = res.json();
  expect(CODES[res.statusCode], label).toContain(body.code);
  expect(typeof body.error, label).toBe('string');
  if (res.statusCode === 400) expect(body.details?.length, `${label}: ${res.body}`).toBeGreaterThan(0);
  expect(res.body, label).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|syntax error at/);
}

/** JSON values, biased towards each route's own field names, with URL-like strings that stay off the network. */
const fieldNames = [
  ...new Set(
    ROUTES.flatMap((r) => Object.keys((r.schema?.body as { properties?: object } | undefined)?.properties ?? {})),
  ),
];
const safeString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 50 }).map((s) => s.replace(/:/g, '')),
  fc.constantFrom(
    'http://127.0.0.1/',
    'http://prop.invalid/',
    'ftp://x.invalid/',
    'https://u:p@x.invalid/',
    'x.invalid',
    '',
    '\u0000',
    '\ud800',
  ),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { maxDepth: 3 },
    safeString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), fc.string({ maxLength: 5 })), tie('v'), { maxKeys: 4 }),
  ),
})).v;
const body = fc.oneof(fc.dictionary(fc.constantFrom(...fieldNames), value, { maxKeys: 4 }), value);

describe('REST validation holds for arbitrary input', () => {
  const posts = ROUTES.filter((r) => r.method === 'POST');
  it.each(posts.map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s: arbitrary JSON bodies → 2xx or documented 4xx',
    async (label, route) => {
      const url = route.url.replace(/:[A-Za-z]+/g, projectId);
      await fc.assert(
        fc.asyncProperty(body, async (payload) => {
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: {
              authorization: `Bearer ${key}`,
              cookie: org.owner.cookie,
              origin: t.config.baseUrl,
              'content-type': 'application/json',
            },
            payload: JSON.stringify(payload) ?? 'null',
          });
          expectDocumented(res, label);
        }),
        { numRuns: 15 },
      );
    },
  );

  it('query parameters (days, auditId, format) and path ids of every GET route → 2xx or documented 4xx', async () => {
    const gets = [...ROUTES, ...STREAM_ROUTES].filter((r) => r.method === 'GET');
    const param = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.integer().map(String),
      fc.constantFrom('', '0', '-1', '365', '366', '9999', '1e3', '30.5', 'csv', 'json', '%00', '%C3%28'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...gets),
        fc.constantFrom('days', 'auditId', 'format', 'first', 'limit'),
        param,
        fc.oneof(fc.constant(projectId), fc.uuid(), fc.string({ maxLength: 10 })),
        async (route, name, raw, id) => {
          const v = /^%/.test(raw) ? raw : encodeURIComponent(raw.replace(/[\ud800-\udfff]/g, 'x'));
          const path = route.url.replace(/:[A-Za-z]+/g, encodeURIComponent(id) || 'x');
          const res = await t.app.inject({
            method: 'GET',
            url: `${path}?${name}=${v}`,
            headers: route.surface === 'A' ? { authorization: `Bearer ${key}` } : { cookie: org.owner.cookie },
          });
          expectDocumented(res, `${route.url}?${name}=${v}`);
        },
      ),
      { numRuns: 60 },
    );
  });
});
