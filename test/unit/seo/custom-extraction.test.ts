import { describe, expect, it } from 'vitest';
import {
  compileExtraction,
  EXTRACTION_LIMITS,
  extractorProblem,
  type ExtractorSpec,
  type PageExtraction,
} from '../../../src/seo/extraction/index.js';

const PAGE = `<!doctype html><html lang="en"><head><title>Blue kettle</title>
<meta name="author" content="Ada Lovelace"><meta property="article:published_time" content="2026-01-02">
</head><body>
<h1 class="title">Blue <b>kettle</b></h1>
<div class="price" data-currency="EUR">  19.90 </div>
<ul id="tags"><li>kitchen</li><li>steel</li><li>blue</li></ul>
<script type="application/ld+json">{"@type":"Product","sku":"K-42"}</script>
<p>Call us: +44 20 7946 0000 or +44 20 7946 0001</p>
</body></html>`;

const spec = (over: Partial<ExtractorSpec> & Pick<ExtractorSpec, 'kind' | 'expression'>): ExtractorSpec => ({
  key: 'x',
  output: 'TEXT',
  attribute: null,
  match: 'FIRST',
  regex: false,
  ignoreCase: false,
  ...over,
});

const run = (s: ExtractorSpec, html = PAGE): PageExtraction => compileExtraction([s]).evaluate(html);

describe('custom extraction', () => {
  it.each([
    ['CSS text', spec({ kind: 'CSS', expression: 'h1.title' }), ['Blue kettle']],
    ['CSS all', spec({ kind: 'CSS', expression: '#tags li', match: 'ALL' }), ['kitchen', 'steel', 'blue']],
    ['CSS first', spec({ kind: 'CSS', expression: '#tags li' }), ['kitchen']],
    [
      'CSS attribute',
      spec({ kind: 'CSS', expression: 'meta[name=author]', output: 'ATTRIBUTE', attribute: 'content' }),
      ['Ada Lovelace'],
    ],
    ['CSS inner HTML', spec({ kind: 'CSS', expression: 'h1', output: 'INNER_HTML' }), ['Blue <b>kettle</b>']],
    ['CSS no match', spec({ kind: 'CSS', expression: '.missing' }), []],
    ['XPath text', spec({ kind: 'XPATH', expression: '//div[@class="price"]' }), ['19.90']],
    ['XPath attribute step', spec({ kind: 'XPATH', expression: '//div[@class="price"]/@data-currency' }), ['EUR']],
    [
      'XPath attribute output',
      spec({
        kind: 'XPATH',
        expression: "//meta[@property='article:published_time']",
        output: 'ATTRIBUTE',
        attribute: 'content',
      }),
      ['2026-01-02'],
    ],
    ['XPath position', spec({ kind: 'XPATH', expression: '//ul[@id="tags"]/li[2]' }), ['steel']],
    ['XPath last()', spec({ kind: 'XPATH', expression: '//ul/li[last()]' }), ['blue']],
    [
      'XPath all',
      spec({ kind: 'XPATH', expression: '//li[contains(., "e")]', match: 'ALL' }),
      ['kitchen', 'steel', 'blue'],
    ],
    ['XPath text()', spec({ kind: 'XPATH', expression: '//h1/text()' }), ['Blue']],
    ['XPath count()', spec({ kind: 'XPATH', expression: 'count(//li)' }), ['3']],
    ['XPath inner HTML', spec({ kind: 'XPATH', expression: '//h1', output: 'INNER_HTML' }), ['Blue <b>kettle</b>']],
    [
      'XPath union',
      spec({ kind: 'XPATH', expression: '//title | //h1', match: 'ALL' }),
      ['Blue kettle', 'Blue kettle'],
    ],
    ['regex group', spec({ kind: 'REGEX', expression: '"sku":"([^"]+)"' }), ['K-42']],
    [
      'regex all',
      spec({ kind: 'REGEX', expression: '\\+44 20 7946 \\d{4}', match: 'ALL' }),
      ['+44 20 7946 0000', '+44 20 7946 0001'],
    ],
    ['regex ignore case', spec({ kind: 'REGEX', expression: 'BLUE KETTLE', ignoreCase: true }), ['Blue kettle']],
    ['contains text', spec({ kind: 'CONTAINS', expression: 'application/ld+json' }), true],
    ['contains text, absent', spec({ kind: 'CONTAINS', expression: 'gtag(' }), false],
    ['does not contain', spec({ kind: 'NOT_CONTAINS', expression: 'gtag(' }), true],
    ['contains regex', spec({ kind: 'CONTAINS', expression: 'price"\\s+data-', regex: true }), true],
    ['does not contain regex', spec({ kind: 'NOT_CONTAINS', expression: 'K-\\d+', regex: true }), false],
  ])('%s', (_name, s, expected) => {
    expect(run(s)).toEqual({ x: expected });
  });

  it.each([
    ['//li[1]', ['a1', 'b1']],
    ['//li[last()]', ['a3', 'b2']],
    ['//li[position() = 2]', ['a2', 'b2']],
    ['(//li)[1]', ['a1']],
    ['//li[@class="x"]', ['a2', 'b1']],
    ['//li[@class="x"][1]', ['a2', 'b1']],
    ['//li[contains(., "3")]', ['a3']],
    ['//li[count(../li) = 2]', ['b1', 'b2']],
    ['//ul//li[not(@class)]', ['a1', 'a3']],
  ])('XPath %s keeps position semantics per parent', (expression, expected) => {
    const html = '<ul><li>a1</li><li class="x">a2</li><li>a3</li></ul><ol><li class="x">b1</li><li>b2</li></ol>';
    expect(run(spec({ kind: 'XPATH', expression, match: 'ALL' }), html)).toEqual({ x: expected });
  });

  it('keeps at most 50 values of at most 1,000 characters', () => {
    const html = `<body>${'<p>a</p>'.repeat(80)}<div>${'y'.repeat(5_000)}</div></body>`;
    expect((run(spec({ kind: 'CSS', expression: 'p', match: 'ALL' }), html).x as string[]).length).toBe(50);
    expect((run(spec({ kind: 'CSS', expression: 'div' }), html).x as string[])[0]).toHaveLength(1_000);
  });

  it.each([
    [spec({ kind: 'CSS', expression: 'div[' }), /^Invalid CSS selector/],
    [spec({ kind: 'CSS', expression: 'p:nope' }), /^Invalid CSS selector/],
    [spec({ kind: 'XPATH', expression: '//div[' }), /^Invalid XPath/],
    [spec({ kind: 'XPATH', expression: '//div[@class=' }), /^Invalid XPath/],
    [spec({ kind: 'XPATH', expression: 'frobnicate(//a)' }), /^Invalid XPath: unknown function frobnicate/],
    [spec({ kind: 'XPATH', expression: 'namespace::x' }), /^Invalid XPath: unsupported axis/],
    [spec({ kind: 'REGEX', expression: '(unclosed' }), /^Invalid regular expression/],
    [spec({ kind: 'CONTAINS', expression: '[a-', regex: true }), /^Invalid regular expression/],
    [spec({ kind: 'CSS', expression: '  ' }), /empty/],
    [spec({ kind: 'CSS', expression: 'a', output: 'ATTRIBUTE' }), /attribute/],
  ])('refuses %o', (s, reason) => {
    expect(extractorProblem(s)).toMatch(reason);
  });

  it('accepts a plain-text search that is not a valid regex', () => {
    expect(extractorProblem(spec({ kind: 'CONTAINS', expression: '[a-' }))).toBeNull();
  });

  it('marks the extractors it had no time for as timed out', () => {
    let clock = 0;
    const compiled = compileExtraction([
      spec({ key: 'a', kind: 'CSS', expression: 'h1' }),
      spec({ key: 'b', kind: 'REGEX', expression: 'K-\\d+' }),
      spec({ key: 'c', kind: 'CONTAINS', expression: 'kettle' }),
    ]);
    // Each reading of the clock advances it 60 ms: the budget of 100 ms covers the first extractor only.
    const result = compiled.evaluate(PAGE, { budgetMs: 100, now: () => (clock += 60) });
    expect(result).toEqual({ a: ['Blue kettle'], b: 'timeout', c: 'timeout' });
  });

  it('after a hard stop, leaves the interrupted extractor and those after it as timed out, unrun', () => {
    const compiled = compileExtraction([
      spec({ key: 'a', kind: 'CSS', expression: 'h1' }),
      spec({ key: 'bad', kind: 'REGEX', expression: '(a+)+$' }), // refused: left out, its index kept
      spec({ key: 'b', kind: 'REGEX', expression: 'K-\\d+' }),
      spec({ key: 'c', kind: 'CONTAINS', expression: 'kettle' }),
      spec({ key: 'd', kind: 'CSS', expression: '.price' }),
    ]);
    const started: number[] = [];
    const result = compiled.evaluate(PAGE, { timedOutFrom: 3, onExtractor: (i) => started.push(i) });
    expect(result).toEqual({ a: ['Blue kettle'], b: ['K-42'], c: 'timeout', d: 'timeout' });
    // Told each extractor as it starts, by its index in the specs: the pool's watch reads it.
    expect(started).toEqual([0, 2]);
    expect(compiled.evaluate(PAGE)).toEqual({ a: ['Blue kettle'], b: ['K-42'], c: true, d: ['19.90'] });
  });

  it('builds no document tree for regexes and searches only', () => {
    expect(compileExtraction([spec({ kind: 'REGEX', expression: 'a' })]).needsTree).toBe(false);
    expect(compileExtraction([spec({ kind: 'XPATH', expression: '//a' })]).needsTree).toBe(true);
  });
});

describe('regex safety', () => {
  const regex = (expression: string, over: Partial<ExtractorSpec> = {}) => spec({ kind: 'REGEX', expression, ...over });

  it.each([
    ['(a+)+$', /nested quantifiers/],
    ['(a*)*b', /nested quantifiers/],
    ['^(\\w+\\s?)*$', /nested quantifiers/],
    ['(x+x+)+y', /nested quantifiers/],
    ['(.*a){20}', /nested quantifiers/],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', /nested quantifiers/],
    ['(?:[a-z0-9]+\\.?)+@', /nested quantifiers/],
    ['(a{1,20}){1,20}', /nested quantifiers/],
    // Issue 61: groups whose iterations split one text in several ways.
    ['(?:a?){50}a{50}', /a group that can match nothing, repeated/],
    ['(?:a?a?){50}b', /a group that can match nothing, repeated/],
    ['(?:a?a?){5}b', /a group that can match nothing, repeated/],
    ['(x|)+y', /a group that can match nothing, repeated/],
    ['(?:(?:ab)?)*c', /a group that can match nothing, repeated/],
    ['a(?:xx?)+y', /optional or variable part that can also begin what follows it/],
    ['(?:a{1,2}){50}b', /optional or variable part that can also begin what follows it/],
    ['(?:a{1,10}){10}b', /optional or variable part that can also begin what follows it/],
    ['(?:x(?:x?y)?){8}z', /optional or variable part that can also begin what follows it/],
    ['(?:\\d\\d?\\.?){6}!', /optional or variable part that can also begin what follows it/],
    ['(a|a)*$', /alternatives 1 and 2 can both start with "a"/],
    ['(a|ab)+c', /alternatives 1 and 2 can both start with "a"/],
    ['(\\w|\\d)+!', /alternatives 1 and 2 can both start with "0"/],
    ['(.|\\s)*<\\/div>', /alternatives 1 and 2 can both start with/],
    ['(?:x|[a-z])*;', /alternatives 1 and 2 can both start with "x"/],
    ['(?:A|b|a)+', /alternatives 1 and 3 can both start with "A"/, true],
    ['(a*)\\1', /backreferences/],
    ['.*NOPE', /repetition of \(almost\) any character at the start/],
    ['[^<]*NOPE', /repetition of \(almost\) any character at the start/],
    ['(?:.+)x', /repetition of \(almost\) any character at the start/],
    ['(?<q>["\'])(.*?)\\k<q>', /backreferences/],
  ])('refuses %s, with the reason', (expression, reason, ignoreCase = false) => {
    const problem = extractorProblem(regex(expression, { ignoreCase }));
    expect(problem).toMatch(/^Unsafe regular expression: /);
    expect(problem).toMatch(reason);
    expect(problem).toMatch(/(exponential|quadratic) time/);
  });

  it('refuses them in regex searches too, and not in plain-text searches', () => {
    expect(extractorProblem(spec({ kind: 'CONTAINS', expression: '(a+)+$', regex: true }))).toMatch(/^Unsafe/);
    expect(extractorProblem(spec({ kind: 'NOT_CONTAINS', expression: '(a|a)*', regex: true }))).toMatch(/^Unsafe/);
    expect(extractorProblem(spec({ kind: 'CONTAINS', expression: '(a+)+$' }))).toBeNull();
  });

  it.each([
    '\\$\\s?\\d+(?:\\.\\d{2})?',
    '€\\s*([\\d.,]+)',
    '"price":\\s*"?([\\d.]+)',
    '\\d{4}-\\d{2}-\\d{2}',
    '(\\d{1,2})/(\\d{1,2})/(\\d{4})',
    '<meta name="author" content="([^"]+)"',
    '"datePublished":"([^"]+)"',
    '<h1[^>]*>(.*?)</h1>',
    '(?:https?|ftp)://[^\\s"\']+',
    '(\\d{1,3}\\.){3}\\d{1,3}',
    '[\\w.+-]+@[\\w-]+\\.[\\w.-]+',
    '(?:\\s|,)+\\d',
    '\\s+$',
    'gtag\\(|googletagmanager',
    '^\\s*<!doctype html>',
    '(?<year>\\d{4})',
    'a{2,}b*c?',
    '(?:,\\s?\\d)+',
    '(\\d{1,3}\\.?){4}',
    '(?:ab?){30}',
    '(?:x(?:yx)?)+;',
    '(?:https?://)?[\\w.-]+',
    '(?:a?a?){4}b',
    '(?:x(?:y?x)){8}z',
    '(?:\\d\\.?){6}!',
    '\\d{1,3}(?:,\\d{3})*(?:\\.\\d{2})?',
  ])('accepts %s', (expression) => {
    expect(extractorProblem(regex(expression))).toBeNull();
  });

  it('accepts every pattern built the usual way: a literal, an optional gap, a capture, a literal', () => {
    const heads = ['<h1[^>]*>', '"price":', 'sku-', '\\$', '€', '<meta name="author" content="', 'data-id='];
    const gaps = ['', '\\s*', '\\s?', '"?', '(?:\\s|&nbsp;)?'];
    const captures = ['([^"]+)', '([^<]+)', '(\\d+)', '([\\d.,]+)', '(\\w+)', '(.*?)', '(\\d{1,3}(?:,\\d{3})*)'];
    const tails = ['', '"', '</h1>', '(?:\\.\\d{2})?', '(?:,\\s?\\d)*', '\\b'];
    let count = 0;
    for (const head of heads)
      for (const gap of gaps)
        for (const capture of captures)
          for (const tail of tails) {
            const expression = head + gap + capture + tail;
            expect(() => new RegExp(expression)).not.toThrow();
            expect(extractorProblem(regex(expression)), expression).toBeNull();
            count++;
          }
    expect(count).toBe(heads.length * gaps.length * captures.length * tails.length);
  });

  it('refuses every group that can match nothing or split a text, repeated more than 4 times', () => {
    const atoms = ['a', '\\d', '[xy]', '\\s', '(?:ab)'];
    for (const atom of atoms)
      for (const count of ['{5}', '{5,}', '{50}', '+', '*'])
        for (const body of [`${atom}?`, `${atom}?${atom}?`, `${atom}${atom}?`, `${atom}{1,2}`, `${atom}|`]) {
          const expression = `(?:${body})${count}!`;
          expect(extractorProblem(regex(expression)), expression).toMatch(/exponential time/);
        }
  });

  it('runs regexes over the first 256 Ki characters of a page only', () => {
    const html = `<p>${'x'.repeat(EXTRACTION_LIMITS.regexTextChars)}</p><b>late</b>`;
    expect(run(regex('<b>(\\w+)</b>'), html)).toEqual({ x: [] });
    expect(run(spec({ kind: 'CONTAINS', expression: '<b>late', regex: true }), html)).toEqual({ x: false });
    // Plain-text searches, CSS and XPath read the whole page.
    expect(run(spec({ kind: 'CONTAINS', expression: '<b>late' }), html)).toEqual({ x: true });
    expect(run(spec({ kind: 'CSS', expression: 'b' }), html)).toEqual({ x: ['late'] });
  });
});
