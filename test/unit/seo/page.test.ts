import { describe, expect, it } from 'vitest';
import {
  extractPageFacts,
  hammingDistance,
  linksNotRead,
  PAGE_FACT_LIMITS,
  type PageContext,
} from '../../../src/seo/page/index.js';

const URL_ = 'https://example.com/dir/page';

function facts(html: string, ctx: Partial<PageContext> = {}) {
  return extractPageFacts(html, { url: URL_, ...ctx });
}

describe('extractPageFacts: document head', () => {
  it('reads doctype, lang, title, description, viewport and charset', () => {
    const f = facts(`<!DOCTYPE html><html lang="de-CH"><head><meta charset="UTF-8">
      <title>  Hello \n  World </title><meta name="description" content="  A   page ">
      <meta name="viewport" content="width=device-width, initial-scale=1"></head><body></body></html>`);
    expect(f).toMatchObject({
      doctype: '!DOCTYPE html',
      hasHtmlDoctype: true,
      lang: 'de-CH',
      titles: ['Hello World'],
      titleCount: 1,
      descriptions: ['A page'],
      descriptionCount: 1,
      viewport: 'width=device-width, initial-scale=1',
      charset: { value: 'utf-8', source: 'meta' },
      headTagsInBody: [],
    });
  });

  it.each([
    ['no doctype', '<html><title>x</title></html>', null, false],
    [
      'legacy html doctype',
      '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"><title>x</title>',
      '!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"',
      true,
    ],
    ['lowercase', '<!doctype html><title>x</title>', '!doctype html', true],
  ])('doctype: %s', (_name, html, doctype, ok) => {
    const f = facts(html);
    expect(f.doctype).toBe(doctype);
    expect(f.hasHtmlDoctype).toBe(ok);
  });

  it.each([
    ['meta charset', '<meta charset="iso-8859-1">', {}, { value: 'iso-8859-1', source: 'meta' }],
    [
      'http-equiv',
      '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">',
      {},
      { value: 'shift_jis', source: 'http-equiv' },
    ],
    ['header only', '', { 'Content-Type': 'text/html; charset=UTF-8' }, { value: 'utf-8', source: 'header' }],
    ['none', '', { 'content-type': 'text/html' }, null],
  ])('charset from %s', (_name, head, headers, expected) => {
    expect(facts(`<head>${head}</head><body>x</body>`, { headers }).charset).toEqual(expected);
  });

  it('counts every title and description and flags head tags inside body', () => {
    const f = facts(`<head><title>One</title><meta name="description" content="d1"></head>
      <body><p>text</p><title>Two</title><meta name="description" content="d2"><meta itemprop="price" content="3">
      <link rel="canonical" href="/c"><meta name="robots" content="noindex"></body>`);
    expect(f.titles).toEqual(['One', 'Two']);
    expect(f.descriptionCount).toBe(2);
    expect(f.headTagsInBody).toEqual(['title', 'meta[name=description]', 'link[rel=canonical]', 'meta[name=robots]']);
    expect(f.canonicals).toEqual([{ href: '/c', url: 'https://example.com/c', inBody: true }]);
  });

  it('treats the first non-head element as the start of the body even without <body>', () => {
    const f = facts('<title>a</title><div>content</div><title>b</title>');
    expect(f.headTagsInBody).toEqual(['title']);
  });

  it('ignores a <noscript> tracking pixel and an <svg> title in the head', () => {
    const f = facts(`<head><title>Real</title><noscript><img src="http://fb.example/tr"></noscript></head>
      <body><svg><title>icon</title><text>svg words</text></svg><p>one two</p></body>`);
    expect(f.titles).toEqual(['Real']);
    expect(f.headTagsInBody).toEqual([]);
    expect(f.imageCount).toBe(0);
    expect(f.wordCount).toBe(2);
  });

  it('collects Open Graph and Twitter tags, first value wins', () => {
    const f = facts(
      `<meta property="og:title" content="OG"><meta property="og:title" content="second">
      <meta name="og:image" content="/i.png"><meta name="twitter:card" content="summary"><meta ` +
        `property="twitter:site" content="@x">`,
    );
    expect(f.openGraph).toEqual({ 'og:title': 'OG', 'og:image': '/i.png' });
    expect(f.twitter).toEqual({ 'twitter:card': 'summary', 'twitter:site': '@x' });
  });

  it('reads favicons and meta refresh', () => {
    expect(facts('<link rel="shortcut icon" href="/f.ico">').hasFavicon).toBe(true);
    expect(facts('<link rel="apple-touch-icon" href="/a.png">').hasFavicon).toBe(true);
    expect(facts('<link rel="stylesheet" href="/s.css">').hasFavicon).toBe(false);
    expect(facts('<meta http-equiv="refresh" content="0; url=/x">').metaRefresh).toBe('0; url=/x');
  });
});

describe('extractPageFacts: robots directives', () => {
  it.each([
    ['meta noindex', '<meta name="robots" content="noindex, follow">', {}, true, false, ['meta']],
    ['meta none', '<meta name="ROBOTS" content="NONE">', {}, true, true, ['meta']],
    ['googlebot meta', '<meta name="googlebot" content="noindex">', {}, true, false, ['googlebot-meta']],
    ['other bot meta is ignored', '<meta name="bingbot" content="noindex">', {}, false, false, []],
    ['header', '', { 'X-Robots-Tag': 'noindex, nofollow' }, true, true, ['header']],
    ['header for googlebot', '', { 'x-robots-tag': ['googlebot: noindex'] }, true, false, ['header']],
    ['header for another bot', '', { 'x-robots-tag': 'bingbot: noindex' }, false, false, []],
    [
      'unavailable_after is a directive, not a user agent',
      '',
      { 'x-robots-tag': 'unavailable_after: 2020-01-01' },
      false,
      false,
      [],
    ],
    ['indexable', '<meta name="robots" content="index, follow">', {}, false, false, []],
  ])('%s', (_name, head, headers, noindex, nofollow, sources) => {
    const robots = facts(`<head>${head}</head>`, { headers }).robots;
    expect(robots.noindex).toBe(noindex);
    expect(robots.nofollow).toBe(nofollow);
    expect(robots.noindexSources).toEqual(sources);
  });
});

describe('extractPageFacts: canonical and hreflang', () => {
  it('resolves canonicals against <base href> and reads the Link header', () => {
    const f = facts('<head><base href="https://cdn.example.com/x/"><link rel="canonical" href="page"></head>', {
      headers: {
        Link:
          '<https://example.com/a,b>; rel="preload", <https://example.com/canon>; rel="canonical", ' +
          '<https://example.com/de>; rel="alternate"; hreflang="de"',
      },
    });
    expect(f.baseUrl).toBe('https://cdn.example.com/x/');
    expect(f.canonicals[0]).toEqual({ href: 'page', url: 'https://cdn.example.com/x/page', inBody: false });
    expect(f.headerCanonical).toBe('https://example.com/canon');
    expect(f.hreflang).toEqual([
      { lang: 'de', href: 'https://example.com/de', url: 'https://example.com/de', source: 'header' },
    ]);
  });

  it('collects hreflang alternates with raw and resolved hrefs', () => {
    const f = facts(
      '<link rel="alternate" hreflang="en-GB" href="https://example.com/uk"><link rel="alternate" ' +
        'hreflang="x-default" href="/">',
    );
    expect(f.hreflang).toEqual([
      { lang: 'en-GB', href: 'https://example.com/uk', url: 'https://example.com/uk', source: 'html' },
      { lang: 'x-default', href: '/', url: 'https://example.com/', source: 'html' },
    ]);
  });
});

describe('extractPageFacts: JSON-LD', () => {
  it('parses valid blocks and reports invalid ones', () => {
    const f = facts(
      `<script type="application/ld+json">{"@context":"https://schema.org",` +
        `"@graph":[{"@type":"Product","name":"W"}]}</script>
      <script type="application/ld+json">{"@type": "Article",}</script><script type="application/ld+json">  </script>`,
    );
    expect(f.jsonLd[0]).toEqual({
      ok: true,
      value: { '@context': 'https://schema.org', '@graph': [{ '@type': 'Product', name: 'W' }] },
    });
    expect(f.jsonLd[1].ok).toBe(false);
    expect(f.jsonLd[2]).toEqual({ ok: false, error: 'empty JSON-LD block' });
  });

  it('says where the JSON breaks in the same words on every Node version', () => {
    const f = facts('<script type="application/ld+json">{\n  "@type": "Article",\n  name: "x"\n}</script>');
    expect(f.jsonLd[0]).toEqual({
      ok: false,
      error: 'Expected double-quoted property name in JSON at position 26 (line 3 column 3)',
    });
    const bare = facts('<script type="application/ld+json">{"a":1,}</script>');
    expect(bare.jsonLd[0]).toEqual({
      ok: false,
      error: 'Expected double-quoted property name in JSON at position 7 (line 1 column 8)',
    });
  });

  it('does not count JSON-LD or scripts as text', () => {
    expect(
      facts(
        '<body><script>var a = "many words here";</script><script type="application/ld+json">{"a":"b c ' +
          'd"}</script>hi</body>',
      ).wordCount,
    ).toBe(1);
  });
});

describe('extractPageFacts: headings and text', () => {
  it('records the heading sequence with nested text', () => {
    const f = facts('<h1>Main <em>title</em></h1><h2>Sub</h2><h4><a href="/x">Deep</a> link</h4><h1>Again</h1>');
    expect(f.headings).toEqual([
      { level: 1, text: 'Main title' },
      { level: 2, text: 'Sub' },
      { level: 4, text: 'Deep link' },
      { level: 1, text: 'Again' },
    ]);
    expect(f.h1Count).toBe(2);
    expect(f.headingCount).toBe(4);
  });

  it.each([
    ['plain words', '<p>one two three</p>', 3],
    ['inline tags join a word', '<p>foo<b>bar</b> baz</p>', 2],
    ['block tags separate words', '<p>foo</p><p>bar</p><div>baz</div>', 3],
    ['entities do not split words', '<p>caf&eacute; cr&egrave;me</p>', 2],
    ['punctuation alone is not a word', '<p>one — two | 3</p>', 3],
    [
      'excluded containers',
      '<style>a b c</style><noscript>d e</noscript><template>f g</template><svg><text>h</text></svg><p>x</p>',
      1,
    ],
    ['head text is not body text', '<head><title>t t t</title></head><body>x y</body>', 2],
  ])('word count: %s', (_name, html, words) => {
    expect(facts(html).wordCount).toBe(words);
  });

  it('measures visible text bytes with whitespace collapsed', () => {
    const f = facts('<body><p>ab   cd</p>\n\n<p>é</p></body>');
    expect(f.textBytes).toBe(Buffer.byteLength('ab cd é'));
  });

  it('hashes normalized text: case and whitespace do not matter, words do', () => {
    const a = facts('<p>Hello   World</p><p>again</p>').textHash;
    expect(facts('<div>hello world\nAGAIN</div>').textHash).toBe(a);
    expect(facts('<p>Hello World</p><p>again!</p>').textHash).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{40}$/);
  });

  it('gives close SimHashes to near-identical texts and distant ones to different texts', () => {
    const words = Array.from({ length: 600 }, (_, i) => `w${(i * 7919) % 1000}`);
    const base = facts(`<p>${words.join(' ')}</p>`).simhash;
    const edited = words.slice();
    edited[300] = 'changed';
    const near = facts(`<p>${edited.join(' ')}</p>`).simhash;
    const other = facts(`<p>${words.map((w) => `${w}x`).join(' ')}</p>`).simhash;
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    expect(hammingDistance(base, near)).toBeLessThanOrEqual(3);
    expect(hammingDistance(base, other)).toBeGreaterThan(10);
  });

  it('keeps memory bounded on huge text: counts words of a 2 MB body', () => {
    const f = facts(`<body><p>${'lorem ipsum '.repeat(180_000)}</p></body>`);
    expect(f.wordCount).toBe(360_000);
  });
});

describe('extractPageFacts: links', () => {
  const html = `<body>
    <a href="/a#frag">A</a>
    <a href="https://www.example.com/b" rel="nofollow ugc">B</a>
    <a href="http://example.com/c">C</a>
    <a href="https://other.org/d"><img src="/i.png" alt="Other site"></a>
    <a href="javascript:void(0)">J</a><a href="">E</a><a href="#">H</a><a href="#section">S</a>
    <a href="javascript:openMenu()">O</a><a href="file:///etc/hosts">F</a>
    <a href="javascript:void(0)" role="button">R</a>
    <a href="" id="top">I</a>
    <a href="mailto:x@example.com">M</a><a href="tel:+100">T</a>
    <a onclick="go()">Click</a><a name="anchor">named</a>
    <a href="/e" aria-label="Read the report">more</a>
    <area href="/map" alt="Map area">
  </body>`;
  const links = facts(html).links;

  it.each([
    ['/a#frag', 'http', 'https://example.com/a', true, 'A', false],
    ['https://www.example.com/b', 'http', 'https://www.example.com/b', true, 'B', true],
    ['http://example.com/c', 'http', 'http://example.com/c', true, 'C', false],
    ['https://other.org/d', 'http', 'https://other.org/d', false, 'Other site', false],
    ['javascript:void(0)', 'uncrawlable', null, false, 'J', false],
    ['', 'fragment', null, true, 'E', false],
    ['#', 'fragment', null, true, 'H', false],
    ['javascript:openMenu()', 'other', null, false, 'O', false],
    ['file:///etc/hosts', 'uncrawlable', null, false, 'F', false],
    ['javascript:void(0)', 'other', null, false, 'R', false],
    ['', 'fragment', null, true, 'I', false],
    ['#section', 'fragment', null, true, 'S', false],
    ['mailto:x@example.com', 'other', null, false, 'M', false],
    ['tel:+100', 'other', null, false, 'T', false],
    ['/map', 'http', 'https://example.com/map', true, 'Map area', false],
  ])('%s -> %s', (href, kind, url, internal, text, nofollow) => {
    const link = links.find((l) => l.href === href && l.text === text);
    expect(link).toMatchObject({ kind, url, internal, text, nofollow });
  });

  it('marks an onclick-only <a> uncrawlable, ignores named anchors, keeps aria-label', () => {
    expect(links.find((l) => l.text === 'Click')).toMatchObject({ kind: 'uncrawlable', href: '' });
    expect(links.some((l) => l.text === 'named')).toBe(false);
    expect(links.find((l) => l.href === '/e')?.label).toBe('Read the report');
    expect(links).toHaveLength(17);
  });

  it('caps stored links but counts them all', () => {
    const many = Array.from({ length: PAGE_FACT_LIMITS.links + 50 }, (_, i) => `<a href="/p${i}">p</a>`).join('');
    const f = facts(`<body>${many}</body>`);
    expect(f.links).toHaveLength(PAGE_FACT_LIMITS.links);
    expect(f.linkCount).toBe(PAGE_FACT_LIMITS.links + 50);
    expect(linksNotRead(f)).toBe(50);
  });

  it('stops reading links once their URLs reach the characters cap (short hrefs under a long base)', () => {
    // Each 2-character href resolves to a URL of ~2,000 characters: 100,000 of them would be 200 MB of URLs.
    const base = `https://example.com/${'d'.repeat(1_980)}/`;
    const total = 6_000;
    const many = Array.from({ length: total }, (_, i) => `<a href=${i.toString(36)}>`).join('');
    const f = facts(`<head><base href="${base}"></head><body>${many}</body>`);
    expect(f.links[0].url!.length).toBeGreaterThan(1_990);
    // Read while the URLs read so far are under the cap: the last one read takes them to it or past it.
    const chars = f.links.reduce((sum, link) => sum + link.url!.length, 0);
    expect(chars).toBeGreaterThanOrEqual(PAGE_FACT_LIMITS.linkUrlChars);
    expect(chars - f.links.at(-1)!.url!.length).toBeLessThan(PAGE_FACT_LIMITS.linkUrlChars);
    expect(f.links.length).toBeLessThan(total / 1.4);
    expect(f.linkCount).toBe(total);
    expect(linksNotRead(f)).toBe(total - f.links.length);
  });
});

describe('extractPageFacts: images, ids, resources', () => {
  it('records images with alt presence and dimensions', () => {
    const f = facts(
      '<body><img src="a.png" alt="" width="1" height="2"><img data-src="/lazy.png"><img srcset="/s1.png 1x, ' +
        '/s2.png 2x" alt="S" width="3"></body>',
    );
    expect(f.images).toEqual([
      {
        src: 'a.png',
        url: 'https://example.com/dir/a.png',
        alt: '',
        hasWidth: true,
        hasHeight: true,
        width: '1',
        height: '2',
        textBefore: 0,
      },
      {
        src: '/lazy.png',
        url: 'https://example.com/lazy.png',
        alt: null,
        hasWidth: false,
        hasHeight: false,
        scriptLazy: true,
        textBefore: 0,
      },
      {
        src: '/s1.png',
        url: 'https://example.com/s1.png',
        alt: 'S',
        hasWidth: true,
        hasHeight: false,
        width: '3',
        textBefore: 0,
      },
    ]);
  });

  it('counts duplicate ids', () => {
    expect(
      facts('<div id="a"></div><p id="a"></p><span id="a"></span><i id="b"></i><b id="c"></b><b id="c"></b>')
        .duplicateIds,
    ).toEqual({ count: 3, sample: ['a', 'c'] });
  });

  it('counts render-blocking scripts and stylesheets in the head only', () => {
    const f = facts(
      `<head><script src="/sync.js"></script><script src="/a.js" async></script><script src="/d.js" ` +
        `defer></script>
      <script type="module" src="/m.js"></script><script>inline()</script><script ` +
        `type="text/template" src="/t"></script>
      <link rel="stylesheet" href="/s.css"><link rel="stylesheet" href="/p.css" media="print"></head>
      <body><script src="/late.js"></script><link rel="stylesheet" href="/b.css"></body>`,
    );
    expect(f.renderBlocking).toEqual({ scripts: 1, stylesheets: 1, sample: ['/sync.js', '/s.css'] });
  });

  it('finds http subresources on an https page only', () => {
    const html =
      `<body><img src="http://cdn.example.com/a.png"><img src="https://ok/b.png"><script ` +
      `src="http://x/s.js"></script>
      <link rel="stylesheet" href="http://x/s.css"><iframe src="http://x/frame"></iframe><a ` +
      `href="http://x/page">a link is not a resource</a>
      <video poster="http://x/p.jpg"></video><img srcset="http://x/1.png 1x, https://x/2.png 2x"></body>`;
    const secure = facts(html).mixedContent;
    expect(secure.count).toBe(6);
    expect(secure.sample.map((m) => m.tag)).toEqual(['img', 'script', 'link', 'iframe', 'video', 'img']);
    expect(facts(html, { url: 'http://example.com/' }).mixedContent.count).toBe(0);
  });

  it('lists the subresources a browser would fetch, once each, with their kind', () => {
    const f = facts(
      `<head><link rel="stylesheet" href="/s.css"><link rel="icon" href="/favicon.ico"><link ` +
        `rel="apple-touch-icon" href="/touch.png">
      <link rel="preload" href="/font.woff2" as="font"><link rel="modulepreload" href="/m.js"><link ` +
        `rel="canonical" href="/page">
      <script src="/app.js" defer></script><script>inline()</script><script ` +
        `type="application/ld+json">{}</script></head>
      <body><img src="a.png" srcset="a.png 1x, /a2.png 2x"><img ` +
        `src="data:image/png;base64,AAAA"><picture><source srcset="/p.webp"><img src="/p.jpg"></picture>
      <video src="/v.mp4" poster="/poster.jpg"><source src="/v.webm"><track ` +
        `src="/subs.vtt"></video><audio src="/a.mp3"></audio>
      <iframe src="https://player.example.org/embed"></iframe><a href="/page">a link is not a ` +
        `resource</a><img src="/s.css">
      <noscript><img src="/tracking.gif"></noscript></body>`,
    );
    expect(f.resources.map((r) => [r.url.replace('https://example.com', ''), r.kind, r.tag])).toEqual([
      ['/s.css', 'stylesheet', 'link[rel=stylesheet]'],
      ['/favicon.ico', 'icon', 'link[rel=icon]'],
      ['/touch.png', 'icon', 'link[rel=apple-touch-icon]'],
      ['/font.woff2', 'font', 'link[rel=preload]'],
      ['/m.js', 'script', 'link[rel=modulepreload]'],
      ['/app.js', 'script', 'script'],
      ['/dir/a.png', 'image', 'img'],
      ['/a2.png', 'image', 'img[srcset]'],
      ['/p.webp', 'image', 'source[srcset]'],
      ['/p.jpg', 'image', 'img'],
      ['/v.mp4', 'media', 'video'],
      ['/poster.jpg', 'image', 'video[poster]'],
      ['/v.webm', 'media', 'source'],
      ['/subs.vtt', 'media', 'track'],
      ['/a.mp3', 'media', 'audio'],
    ]);
    expect(
      facts(`<body>${Array.from({ length: 400 }, (_, i) => `<img src="/i${i}.png">`).join('')}</body>`).resources,
    ).toHaveLength(PAGE_FACT_LIMITS.resources);
  });

  it('counts DOM elements outside inert containers and measures HTML bytes', () => {
    const html =
      '<html><head><title>é</title></head><body><div><p>x</p></div><noscript><div></div></noscript></body></html>';
    const f = facts(html);
    expect(f.domElements).toBe(7);
    expect(f.htmlBytes).toBe(Buffer.byteLength(html));
  });
});

describe('extractPageFacts: bytes input', () => {
  it('decodes using the Content-Type charset', () => {
    const bytes = Buffer.from('<title>caf\xe9</title>', 'latin1');
    const f = extractPageFacts(bytes, { url: URL_, headers: { 'content-type': 'text/html; charset=ISO-8859-1' } });
    expect(f.titles).toEqual(['café']);
    expect(f.htmlBytes).toBe(bytes.length);
  });

  it('sniffs a meta charset and defaults to UTF-8', () => {
    const latin = Buffer.concat([
      Buffer.from('<meta charset="windows-1252"><title>'),
      Buffer.from([0x93, 0x61, 0x94]),
      Buffer.from('</title>'),
    ]);
    expect(extractPageFacts(latin, { url: URL_ }).titles).toEqual(['\u201ca\u201d']);
    expect(extractPageFacts(Buffer.from('<title>ü</title>'), { url: URL_ }).titles).toEqual(['ü']);
  });
});
