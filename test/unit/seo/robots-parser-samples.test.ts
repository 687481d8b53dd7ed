import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../../../src/seo/robots/index.js';

/**
 * The parser's results over a fixed set of robots.txt files, compared with the results recorded in
 * test/fixtures/robots/parser-results.json: a change to how the parser is written must leave every group, rule,
 * sitemap, error and warning (text and line) as it was. The hand-written samples are kept whole (a difference shows
 * as a diff); the generated ones, which mix every kind of line in many orders and line endings, by a digest each.
 * After an intended change of the parser's results, rewrite the file with UPDATE_ROBOTS_GOLDEN=1 and review its diff.
 */
const GOLDEN = new URL('../../fixtures/robots/parser-results.json', import.meta.url);

interface Golden {
  samples: Record<string, unknown>;
  generated: string[];
}

const SAMPLES: Record<string, string | Uint8Array> = {
  empty: '',
  blankLines: '\n\n  \n\t\n',
  rfcExample: [
    'User-Agent: *',
    'Disallow: *.gif$',
    'Disallow: /example/',
    'Allow: /publications/',
    '',
    'User-Agent: foobot',
    'Disallow:/',
    'Allow:/example/page.html',
    '',
    'User-Agent: barbot',
    'User-Agent: bazbot',
    'Disallow: /example/page.html',
    '',
    'User-Agent: quxbot',
    '',
    'EOF',
  ].join('\n'),
  mixedLineEndings: 'User-agent: a\r\nDisallow: /1\rDisallow: /2\nDisallow: /3\r\n\r\nUser-agent: b\rAllow: /',
  comments: '# head\nUser-agent: * # all\n  # indented\nDisallow: /private # trailing\n#Disallow: /x\nAllow: /a#b',
  bom: '\ufeffUser-agent: *\nDisallow: /bom',
  caseAndSpace: '  USER-AGENT \t:  Foo  \n\tdIsAlLoW:/a  \n ALLOW :\t/a/b\t\n\u00a0Allow: /nbsp\u00a0',
  rulesBeforeAgent: 'Disallow: /\nAllow: /x\nUser-agent: *\nDisallow: nope\nDisallow: /ok',
  html: '<!DOCTYPE html>\n<html>\n<head><title>x</title>\nUser-agent: *\nDisallow: /',
  typos: [
    'Useragent: a',
    'User agent: b',
    'Dissallow: /1',
    'Dissalow: /2',
    'Disalow: /3',
    'Diasllow: /4',
    'Disallaw: /5',
    'Site-map: https://e.com/s.xml',
  ].join('\n'),
  nonStandard: [
    'User-agent: *',
    'Disallow: /x',
    'Crawl-delay: 10',
    'Host: e.com',
    'Clean-param: a /b',
    'Noindex: /c',
    'Nofollow: /d',
    'Request-rate: 1/5',
    'Visit-time: 0600-0845',
    'Content-Signal: search=yes',
    'Crawl-delay 5',
    'noindex',
  ].join('\n'),
  unknown: 'User-agent: *\nDisalow: /x\nAllw: /y\nSitmap: https://e.com/s.xml\nFoo: bar\nXyzzy-long-directive: 1',
  missingColon:
    'User-agent *\nDisallow /admin\nAllow /a b\nSitemap https://e.com/s.xml\nwhat is this\nDisallow\nfoo bar',
  userAgents: [
    'User-agent:',
    'User-agent: Googlebot/2.1 (+http://www.google.com/bot.html)',
    'User-agent: *** ',
    'User-agent: 123',
    'User-agent: * anything',
    'User-agent: Bing_Bot-x',
    'Disallow: /',
  ].join('\n'),
  rulePaths: [
    'User-agent: *',
    'Allow:',
    'Disallow:',
    'Disallow: https://e.com/private',
    'Disallow: http://e.com',
    'Disallow: private',
    'Disallow: /with space',
    'Disallow: /with\ttab',
    'Allow: *.pdf$',
    `Disallow: /${'a'.repeat(150)}`,
  ].join('\n'),
  sitemaps: [
    'Sitemap: https://e.com/a.xml',
    'User-agent: a',
    'Sitemap: https://e.com/b.xml',
    'User-agent: b',
    'Disallow: /',
    'Sitemap: https://e.com/a.xml',
    'Sitemap:',
    'Sitemap: /relative.xml',
    'Sitemap: ftp://e.com/s.xml',
  ].join('\n'),
  emptyGroups:
    'User-agent: a\nUser-agent: b\n\nSitemap: https://e.com/s.xml\nUser-agent: c\nDisallow: /\nUser-agent: d',
  nul: 'User-agent: *\nDisallow: /a\u0000b',
  utf16: new Uint8Array([0xff, 0xfe, 0x55, 0x00, 0x73, 0x00]),
  invalidUtf8: new Uint8Array([...Buffer.from('User-agent: *\nDisallow: /'), 0xc3, 0x28, 0x0a, 0x41, 0x3a, 0xff]),
  manyErrors: Array.from({ length: 1_100 }, (_, i) => `junk line ${i} here`).join('\n'),
  oversize: `User-agent: *\n${'Disallow: /some/long/path/segment\n'.repeat(16_000)}Disallow: /after-the-limit`,
};

/** Deterministic pseudo-random numbers (mulberry32), so the generated files are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const LINES = [
  'User-agent: *',
  'User-agent: Googlebot',
  'user-agent: bingbot/2.0',
  'User-agent:',
  'User-agent: 42',
  'Useragent: typo',
  'Disallow: /',
  'Disallow:',
  'disallow: /private/*.pdf$',
  'Disallow: https://e.com/x',
  'Disallow: nope',
  'Dissallow: /t',
  'Allow: /public',
  'Allow:',
  'Allow: /a b',
  'Sitemap: https://e.com/sitemap.xml',
  'Sitemap: https://e.com/other.xml',
  'Sitemap: rel.xml',
  'Crawl-delay: 2',
  'Noindex: /n',
  'Disalow: /typo',
  'Frobnicate: 1',
  'Disallow /nocolon',
  'three word line',
  '<html>',
  '# a comment',
  'Allow: /x # trailing comment',
  '',
  '   ',
];
const BREAKS = ['\n', '\r\n', '\r'];

function generatedFile(seed: number): string {
  const next = random(seed);
  const count = 1 + Math.floor(next() * 24);
  let text = next() < 0.1 ? '\ufeff' : '';
  for (let i = 0; i < count; i++) {
    text += LINES[Math.floor(next() * LINES.length)];
    if (i < count - 1 || next() < 0.5) text += BREAKS[Math.floor(next() * BREAKS.length)];
  }
  return text;
}

const GENERATED = 400;

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

/** A long list (the oversize file's rules, the 1,000 errors of garbage) is kept as its ends and a digest. */
function compact<T>(list: T[]): T[] | { count: number; digest: string; first: T[]; last: T[] } {
  return list.length <= 20
    ? list
    : { count: list.length, digest: digest(list), first: list.slice(0, 3), last: list.slice(-2) };
}

function currentResults(): Golden {
  const samples: Record<string, unknown> = {};
  for (const [name, content] of Object.entries(SAMPLES)) {
    const result = parseRobotsTxt(content);
    const groups = result.groups.map((group) => ({ ...group, rules: compact(group.rules) }));
    samples[name] = { ...result, groups, errors: compact(result.errors), warnings: compact(result.warnings) };
  }
  const generated = Array.from({ length: GENERATED }, (_, seed) => digest(parseRobotsTxt(generatedFile(seed))));
  return { samples, generated };
}

describe('parseRobotsTxt: results over a fixed set of files', () => {
  const results = currentResults();
  if (process.env.UPDATE_ROBOTS_GOLDEN === '1') writeFileSync(GOLDEN, `${JSON.stringify(results, null, 2)}\n`);
  const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden;

  it('covers every hand-written sample and every generated file', () => {
    expect(Object.keys(golden.samples)).toEqual(Object.keys(SAMPLES));
    expect(golden.generated).toHaveLength(GENERATED);
  });

  it.each(Object.keys(SAMPLES))('gives the recorded result for %s', (name) => {
    expect(results.samples[name]).toEqual(golden.samples[name]);
  });

  it('gives the recorded result for each generated file', () => {
    const differing = results.generated.flatMap((value, seed) =>
      value === golden.generated[seed] ? [] : [{ seed, file: generatedFile(seed) }],
    );
    expect(differing).toEqual([]);
  });
});
