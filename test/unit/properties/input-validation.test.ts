/**
 * Property tests (fast-check) of the input validation every entry point relies on: whatever a client
 * sends, validation either accepts it in a normalized form or refuses it with a domain BAD_USER_INPUT
 * error naming the field — it never throws anything else — and the pure parsers never throw at all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/platform/errors.js';
import { isUuid, newId } from '../../../src/platform/ids.js';
import { assertStorableText, invalidTextPath } from '../../../src/platform/text-input.js';
import { normalizeProjectUrl } from '../../../src/projects/project-url.js';
import { normalizeCompetitorDomain } from '../../../src/competitors/competitor.service.js';
import { analyzeRobotsTxt, parseRobotsTxt } from '../../../src/seo/robots/index.js';
import { validateSitemap } from '../../../src/seo/sitemap/index.js';
import { jsonDepthExceeds } from '../../../facades/http/request-errors.js';

const RUNS = { numRuns: 300 };

/** URL-like strings: real http(s)/other URLs, their pieces glued to junk, and plain arbitrary text. */
const urlish = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webUrl().map((u) => u.replace('://', '://user:pw@')),
  fc
    .tuple(
      fc.constantFrom('http://', 'https://', 'ftp://', 'javascript:', 'HTTP://', '//', ' https://', 'file:///'),
      fc.string({ unit: 'grapheme-composite' }),
    )
    .map(([a, b]) => a + b),
  fc.domain(),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ maxLength: 3000 }),
);

/** Runs `fn`; a thrown error must be a BAD_USER_INPUT DomainError whose details name `field`. */
function validated<T>(fn: () => T, field: string): T | null {
  try {
    return fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('BAD_USER_INPUT');
    expect((err as DomainError).details?.[0]?.path).toBe(field);
    return null;
  }
}

describe('project URL validation', () => {
  it(
    'accepts only http(s) URLs without credentials or fragment, normalized idempotently; refuses the rest as ' +
      'BAD_USER_INPUT',
    () => {
      fc.assert(
        fc.property(urlish, (input) => {
          const result = validated(() => normalizeProjectUrl(input), 'url');
          if (!result) return;
          const url = new URL(result.url);
          expect(['http:', 'https:']).toContain(url.protocol);
          expect(url.username + url.password).toBe('');
          expect(url.hash).toBe('');
          expect(result.domain).toBe(url.hostname.replace(/\.$/, ''));
          expect(normalizeProjectUrl(result.url)).toEqual(result);
        }),
        RUNS,
      );
    },
  );
});

describe('competitor domain validation', () => {
  it.each(['..', '...', 'a..', 'http://..', '.example.com', 'example..com', 'https://example..com/x'])(
    'refuses %j, a host name with an empty label (fast-check found ".." accepted as ".")',
    (input) => {
      expect(validated(() => normalizeCompetitorDomain(input), 'domain')).toBeNull();
    },
  );

  it.each([
    ['Example.COM.', 'example.com'],
    ['https://www.example.com/path', 'example.com'],
    ['http://shop.example.co.uk:8080/', 'shop.example.co.uk:8080'],
  ])('%j is %j', (input, domain) => {
    expect(normalizeCompetitorDomain(input)).toBe(domain);
  });

  it('yields a bare host (and port), stable when fed back; refuses the rest as BAD_USER_INPUT', () => {
    fc.assert(
      fc.property(urlish, (input) => {
        const domain = validated(() => normalizeCompetitorDomain(input), 'domain');
        if (domain === null) return;
        expect(domain).not.toMatch(/[/\s@?#]/);
        expect(domain.startsWith('www.')).toBe(false);
        expect(normalizeCompetitorDomain(domain)).toBe(domain);
      }),
      RUNS,
    );
  });
});

describe('text PostgreSQL can store (every GraphQL and REST argument)', () => {
  const unstorable = (s: string) => s.includes('\u0000') || !(s as string & { isWellFormed(): boolean }).isWellFormed();
  const hasUnstorable = (value: unknown): boolean =>
    typeof value === 'string'
      ? unstorable(value)
      : value !== null &&
        typeof value === 'object' &&
        Object.entries(value).some(([k, v]) => unstorable(k) || hasUnstorable(v));

  it('refuses exactly the values holding a NUL or a lone surrogate, naming a path that leads to one', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.constantFrom('a', '\u0000', '\ud800', '\udc00', '\ud83d\ude00', 'é') }),
    );
    fc.assert(
      fc.property(
        fc
          .jsonValue({ maxDepth: 4 })
          .chain((v) => fc.tuple(fc.constant(v), text))
          .map(([v, t]) => ({ input: v, note: t })),
        (args) => {
          const bad = hasUnstorable(args);
          const found = invalidTextPath(args);
          expect(found !== null).toBe(bad);
          if (found) {
            let node: unknown = args;
            const keys = found.path.split('.');
            // The named path reaches the offending value (keys with dots aside, which fast-check rarely makes).
            for (const key of keys)
              node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
            if (keys.every((k) => !k.includes('.')) && node !== undefined && typeof node === 'string')
              expect(unstorable(node)).toBe(true);
            expect(() => assertStorableText(args)).toThrow(DomainError);
          } else {
            expect(() => assertStorableText(args)).not.toThrow();
          }
        },
      ),
      RUNS,
    );
  });
});

describe('JSON nesting bound', () => {
  const depth = (v: unknown): number =>
    v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;
  it('agrees with a recursive depth count', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (value, max) => {
        expect(jsonDepthExceeds(value, max)).toBe(depth(value) > max);
      }),
      RUNS,
    );
  });
});

describe('ids', () => {
  it('only canonical UUIDs are ids; generated ids always are', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uuid(),
          fc.string(),
          fc.uuid().map((u) => `${u} `),
          fc.uuid().map((u) => u.replace(/-/g, '')),
        ),
        (s) => {
          expect(isUuid(s)).toBe(/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(s));
        },
      ),
      RUNS,
    );
    for (let i = 0; i < 50; i++) expect(isUuid(newId())).toBe(true);
  });
});

describe('robots.txt and sitemap parsers', () => {
  const robotsLike = fc.array(
    fc.oneof(
      fc.constantFrom(
        'User-agent: *',
        'User-agent: SEOAuditBot',
        'Disallow: /',
        'Allow: /a$',
        'Disallow: /*?q=',
        'Sitemap: https://e.com/s.xml',
        'Crawl-delay: 5',
        '# c',
        '',
      ),
      fc
        .tuple(
          fc.constantFrom('Disallow: ', 'Allow: ', 'User-agent: ', 'Sitemap: ', ''),
          fc.string({ unit: 'binary', maxLength: 40 }),
        )
        .map(([a, b]) => a + b),
    ),
    { maxLength: 30 },
  );
  it('parse and analyze any text or bytes without throwing', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(robotsLike, fc.constantFrom('\n', '\r\n', '\r')).map(([lines, eol]) => lines.join(eol)),
          fc.string({ unit: 'binary' }),
          fc.uint8Array({ maxLength: 300 }),
        ),
        fc.array(fc.oneof(fc.webUrl(), fc.string()), { maxLength: 5 }),
        (content, testUrls) => {
          parseRobotsTxt(content);
          const analysis = analyzeRobotsTxt(content, { testUrls, userAgent: 'SEOAuditBot' });
          expect(typeof analysis.valid).toBe('boolean');
          expect(analysis.tests).toHaveLength(testUrls.length);
        },
      ),
      RUNS,
    );
  });

  const sitemapLike = fc.oneof(
    fc
      .array(
        fc.oneof(
          fc.constantFrom(
            '<?xml version="1.0"?>',
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
            '</urlset>',
            '<url>',
            '</url>',
            '<loc>',
            '</loc>',
            '<sitemapindex>',
            '<lastmod>2024-01-01</lastmod>',
            '&',
            '<!DOCTYPE x [<!ENTITY a "b">]>',
            '&a;',
          ),
          fc.webUrl(),
          fc.string({ unit: 'binary', maxLength: 20 }),
        ),
        { maxLength: 40 },
      )
      .map((parts) => parts.join('')),
    fc.string({ unit: 'binary' }),
    fc.uint8Array({ maxLength: 300 }),
  );
  it('validate any text or bytes without throwing (problems become errors)', async () => {
    await fc.assert(
      fc.asyncProperty(sitemapLike, async (content) => {
        const analysis = await validateSitemap(content);
        expect(Array.isArray(analysis.errors)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
