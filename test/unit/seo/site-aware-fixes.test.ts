import { describe, expect, it } from 'vitest';
import { CHECK_THRESHOLDS } from '../../../src/seo/checks/index.js';
import {
  assignTwinTitles,
  extractFixContext,
  proposeDescription,
  proposeTitle,
  suggestFix,
  type FixPageContext,
} from '../../../src/seo/fixes/index.js';
import type { SiteTitlePattern } from '../../../src/seo/fixes/fix.types.js';

const URL = 'https://www.oak-and-iron.co.uk/journal/seasoning-oak';
const ARTICLE =
  'Every board we use is air-dried in our Devon yard for two years before it reaches the bench, so the ' +
  'finished table stays flat through damp winters.';

/** The site's own other titles end " | Oak & Iron Journal" (host guess would be "Oak And Iron"). */
const JOURNAL_TITLES = [
  'Choosing a finish for oak | Oak & Iron Journal',
  'Why we never stain walnut | Oak & Iron Journal',
  'A visit to the sawmill | Oak & Iron Journal',
  'Caring for an oiled table | Oak & Iron Journal',
  'Oak & Iron',
];

const suffix = (affix: string, brand: string): SiteTitlePattern => ({
  position: 'suffix',
  affix,
  brand,
  separator: affix.slice(0, affix.length - brand.length),
  support: 4,
  total: 5,
});

function page(overrides: Partial<FixPageContext>): FixPageContext {
  return {
    url: URL,
    title: null,
    description: null,
    h1: [],
    headings: [],
    paragraphs: [],
    lang: 'en',
    canonical: null,
    images: [],
    ...overrides,
  };
}

const headed = (h1: string, h2?: string) =>
  page({
    h1: [h1],
    headings: [{ level: 1, text: h1 }, ...(h2 ? [{ level: 2, text: h2 }] : [])],
  });

describe('title proposals follow the site pattern', () => {
  const journal = suffix(' | Oak & Iron Journal', 'Oak & Iron Journal');

  it("puts the site's exact suffix after the topic, not og:site_name or the host guess", () => {
    const proposal = proposeTitle(
      { ...headed('How we season oak'), siteName: 'Oak and Iron', sitePattern: journal },
      URL,
    );
    expect(proposal).toEqual({ text: 'How we season oak | Oak & Iron Journal', complete: true });
    // Without a pattern the old rule stands: og:site_name.
    expect(proposeTitle({ ...headed('How we season oak'), siteName: 'Oak and Iron' }, URL).text).toBe(
      'How we season oak | Oak and Iron',
    );
  });

  it.each([
    [' — ', 'Acme'],
    [' · ', 'Acme'],
    [' :: ', 'Acme'],
    [' » ', 'Acme'],
  ])('keeps the separator %j', (separator, brand) => {
    const text = proposeTitle(
      { ...headed('Solid oak dining tables for six'), sitePattern: suffix(`${separator}${brand}`, brand) },
      URL,
    ).text;
    expect(text).toBe(`Solid oak dining tables for six${separator}${brand}`);
  });

  it('puts a prefix first', () => {
    const sitePattern: SiteTitlePattern = {
      position: 'prefix',
      affix: 'Acme: ',
      brand: 'Acme',
      separator: ': ',
      support: 3,
      total: 3,
    };
    expect(proposeTitle({ ...headed('Solid oak dining tables for six'), sitePattern }, URL).text).toBe(
      'Acme: Solid oak dining tables for six',
    );
    // The current title already carries the prefix: kept once.
    const current = { ...page({ title: 'Acme: Dining tables' }), sitePattern };
    expect(proposeTitle(current, URL, 'extend').text).toBe('Acme: Dining tables');
    expect(proposeTitle(current, URL, 'extend').text.match(/Acme/g)).toHaveLength(1);
  });

  it('cuts a long topic at a word and never the brand', () => {
    const long = 'Solid oak dining table handmade in Devon from FSC-certified timber and oils';
    const { text, complete } = proposeTitle({ ...headed(long), sitePattern: journal }, URL);
    expect(complete).toBe(true);
    expect(text.length).toBeLessThanOrEqual(CHECK_THRESHOLDS.titleMaxChars);
    expect(text.endsWith(' | Oak & Iron Journal')).toBe(true);
    const topic = text.slice(0, -' | Oak & Iron Journal'.length);
    expect(long.startsWith(topic)).toBe(true);
    expect(long[topic.length]).toBe(' ');
  });

  it('tops a short topic up with the h2 inside the band, brand last', () => {
    const acme = suffix(' | Acme', 'Acme');
    const { text, complete } = proposeTitle({ ...headed('Tables', 'Made to order in Devon'), sitePattern: acme }, URL);
    expect(text).toBe('Tables: Made to order in Devon | Acme');
    expect(complete).toBe(true);
  });

  it('never doubles the affix: a current title with the brand under another separator is rebranded once', () => {
    const current = page({
      title: 'Solid oak dining table handmade in Devon from FSC-certified timber - Oak & Iron Journal',
      sitePattern: journal,
    });
    const text = proposeTitle(current, URL, 'shorten').text;
    expect(text).toMatch(/^Solid oak dining table.* \| Oak & Iron Journal$/);
    expect(text.match(/Journal/g)).toHaveLength(1);
    const already = { ...headed('Pricing | Oak & Iron Journal'), sitePattern: journal };
    expect(proposeTitle(already, URL).text.match(/Journal/g)).toHaveLength(1);
  });

  it('a brand also in the h1: appended when the h1 only starts with it, not when it ends with it', () => {
    const acme = suffix(' | Acme', 'Acme');
    expect(proposeTitle({ ...headed('Acme Cloud pricing for small teams'), sitePattern: acme }, URL).text).toBe(
      'Acme Cloud pricing for small teams | Acme',
    );
    const home = proposeTitle({ ...headed('Welcome to Acme', 'Tools for small workshops'), sitePattern: acme }, URL);
    expect(home.text).toBe('Welcome to Acme: Tools for small workshops');
    // Only the brand as a word counts: "Nacme" does not end with "Acme".
    expect(proposeTitle({ ...headed('Garden tools by Nacme'), sitePattern: acme }, URL).text).toBe(
      'Garden tools by Nacme | Acme',
    );
  });

  it('suggestFix: the tag and the steps follow the pattern read from the other titles', () => {
    const html =
      '<html><head><meta property="og:site_name" content="Oak and Iron"></head><body>' +
      `<h1>How we season oak</h1><p>${ARTICLE}</p></body></html>`;
    const context = extractFixContext(html, URL, { otherTitles: JOURNAL_TITLES });
    expect(context.sitePattern).toMatchObject({ affix: ' | Oak & Iron Journal', support: 4, total: 5 });
    const fix = suggestFix({ code: 'META_TITLE_MISSING', url: URL, evidence: { titleCount: 0 }, page: context });
    expect(fix.code).toBe('<title>How we season oak | Oak &amp; Iron Journal</title>');
    expect(fix.steps.join(' ')).toContain('the ending "| Oak & Iron Journal" that 4 of the 5 distinct titles');
    // No pattern among the other titles: the og:site_name suffix as before.
    const mixed = extractFixContext(html, URL, { otherTitles: ['Home', 'Tables | A', 'Chairs - B', 'Contact'] });
    expect(mixed.sitePattern).toBeNull();
    expect(suggestFix({ code: 'META_TITLE_MISSING', url: URL, evidence: null, page: mixed }).code).toBe(
      '<title>How we season oak | Oak and Iron</title>',
    );
  });
});

describe('descriptions come from the main content, never navigation', () => {
  const menuItem = (label: string) =>
    `<li><a href="/${label.toLowerCase().replace(/ /g, '-')}">${label}</a><p>${label}: browse our full ` +
    'range of handmade pieces in solid oak, walnut and ash, delivered free across the mainland.</p></li>';
  const MENU = ['Dining tables', 'Chairs and benches', 'Sideboards', 'Bedroom', 'Gift cards'].map(menuItem).join('');
  const TAGLINE =
    'Handmade furniture from our Devon workshop since 1987, made to order and delivered across the whole UK.';

  /** Page chrome that names itself only through roles and class names, before the article. */
  const NAMED_CHROME = `<!doctype html><html><head><title>How we season oak</title></head>
<body class="page has-nav-menu">
  <a class="skip-link screen-reader-text" href="#content">Skip to the content of this page and read on</a>
  <div class="cookie-notice"><p>We use cookies to give you the best experience on our website. Accept?</p></div>
  <div id="masthead" class="site-header"><p class="tagline">${TAGLINE}</p></div>
  <div class="main-navigation" role="navigation"><ul class="primary-menu">${MENU}</ul></div>
  <ol class="breadcrumb"><li><a href="/">Home</a> and the full path of sections above this article page</li></ol>
  <div id="content"><h1>How we season oak</h1><p>${ARTICLE}</p>
    <div class="sidebar"><p>Sign up for our newsletter and get ten percent off your first order with us.</p></div>
  </div>
</body></html>`;

  it('skips the skip link, header tagline, role=navigation menu and breadcrumb: the article opens the text', () => {
    const context = extractFixContext(NAMED_CHROME, URL);
    expect(context.paragraphs).toEqual([ARTICLE]);
    const proposal = proposeDescription(context, URL);
    expect(proposal.source).toBe('page-text');
    expect(proposal.text).toBe(ARTICLE);
    expect(proposal.text.length).toBeGreaterThanOrEqual(CHECK_THRESHOLDS.descriptionMinChars);
    expect(proposal.text.length).toBeLessThanOrEqual(CHECK_THRESHOLDS.descriptionMaxChars);
  });

  it('a long navigation list and a header tagline first: the description is the article paragraph', () => {
    const html = `<body><header role="banner"><p>${TAGLINE}</p><nav><ul>${MENU}</ul></nav></header>
      <div role="menubar"><p>${TAGLINE}</p></div><article><p>${ARTICLE}</p></article></body>`;
    const fix = suggestFix({
      code: 'META_DESCRIPTION_MISSING',
      url: URL,
      evidence: {},
      page: extractFixContext(html, URL),
    });
    expect(fix.code).toBe(`<meta name="description" content="${ARTICLE}">`);
  });

  it('prefers <main> (or role=main) text to prose outside it', () => {
    const promo =
      '<div class="promo"><p>Summer sale: twenty percent off every table and chair until the end of June.</p></div>';
    for (const open of ['<main>', '<div role="main">']) {
      const close = open === '<main>' ? '</main>' : '</div>';
      const context = extractFixContext(`<body>${promo}${open}<p>${ARTICLE}</p>${close}<p>After main.</p></body>`, URL);
      expect(context.paragraphs).toEqual([ARTICLE]);
    }
  });

  it('falls back to <article> text, and keeps an article header (its lede) that a site header would lose', () => {
    const lede = 'Two years in the yard, a month in the workshop: the slow way we prepare every board of oak.';
    const html =
      '<body><div class="intro-strip"><p>Free delivery on every order over five hundred pounds, this week only.</p>' +
      `</div><article><header><h1>How we season oak</h1><p class="standfirst">${lede}</p></header><p>${ARTICLE}</p>` +
      '<footer><p>Posted in Workshop notes by the Oak and Iron team, tagged oak and seasoning.</p></footer>' +
      '</article></body>';
    expect(extractFixContext(html, URL).paragraphs).toEqual([lede, ARTICLE]);
  });

  it('skips breadcrumb trails named by aria-label or schema.org, and text blocks of menus', () => {
    const trail = 'Home › Journal › Workshop notes › Seasoning › How we season oak for our dining tables';
    const html =
      `<body><div aria-label="Breadcrumb"><span>${trail}</span></div>` +
      `<ul itemscope itemtype="https://schema.org/BreadcrumbList"><li>${trail}</li></ul>` +
      '<ul class="menu"><li>Dining tables</li><li>Chairs</li></ul><div>A block of page text about oak.</div></body>';
    expect(extractFixContext(html, URL).paragraphs).toEqual(['A block of page text about oak.']);
  });

  it('keeps text whose classes only resemble chrome words ("nav-open" on a wrapper, "menu-item" content)', () => {
    const html =
      '<body class="nav-open has-nav-menu"><div class="wrapper nav-open">' +
      `<section class="menu-items"><p>${ARTICLE}</p></section></div></body>`;
    expect(extractFixContext(html, URL).paragraphs).toEqual([ARTICLE]);
  });
});

describe('duplicate-title fixes give each twin a title of its own (issue 48)', () => {
  // Debian's Python manual: two pages titled "Introduction — Python 3.11.2 documentation", both with the h1
  // "Introduction", and the site's other titles ending " — Python 3.11.2 documentation".
  const PY = 'http://127.0.0.1:8101';
  const SUFFIX = ' — Python 3.11.2 documentation';
  const twins = [
    { url: `${PY}/c-api/intro.html`, h1: 'Introduction' },
    { url: `${PY}/library/intro.html`, h1: 'Introduction' },
  ];
  const otherTitles = ['Built-in Functions', 'The Python Tutorial', 'Introduction', 'Type Objects'].map(
    (topic) => `${topic}${SUFFIX}`,
  );

  function twinFix(url: string, takenTitles: string[]) {
    const html = `<html><head><title>Introduction${SUFFIX}</title></head><body><h1>Introduction</h1></body></html>`;
    const page = { ...extractFixContext(html, url, { otherTitles }), titleTwins: twins, takenTitles };
    const evidence = { title: `Introduction${SUFFIX}`, duplicates: 1, sameAs: twins.map((t) => t.url) };
    const code = suggestFix({ code: 'META_TITLE_DUPLICATE', url, evidence, page }).code!;
    return /^<title>(.*)<\/title>$/.exec(code)![1];
  }

  it('proposes different titles, from what sets each page apart, none of them the shared one', () => {
    const taken = [`introduction${SUFFIX}`];
    const titles = twins.map((twin) => twinFix(twin.url, taken));
    expect(titles).toEqual([`Introduction – C api${SUFFIX}`, `Introduction – Library${SUFFIX}`]);
  });

  it('never proposes a title another page of the site already has', () => {
    const taken = [`introduction${SUFFIX}`, `introduction – library${SUFFIX}`];
    const titles = twins.map((twin) => twinFix(twin.url, taken));
    expect(new Set(titles).size).toBe(2);
    for (const title of titles) expect(taken).not.toContain(title.toLowerCase());
    expect(titles[1]).toBe(`Library – Introduction${SUFFIX}`);
  });

  it('keeps each h1 when the twins have different ones (the manual index pages)', () => {
    const index = [
      { url: `${PY}/genindex.html`, h1: 'Index' },
      { url: `${PY}/genindex-A.html`, h1: 'Index – A' },
      { url: `${PY}/genindex-all.html`, h1: 'Index' },
    ];
    const titles = assignTwinTitles(index, new Set([`index${SUFFIX}`]), null);
    expect([...titles.values()].map((title) => title.split(' | ')[0])).toEqual([
      'Index – A',
      'Index – Genindex all',
      'Index – Genindex',
    ]);
  });
});
