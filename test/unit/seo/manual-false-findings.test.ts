import { describe, expect, it } from 'vitest';
import {
  isFileNameAlt,
  nonIndexableReason,
  runPageChecks,
  runSiteChecks,
  summarizePage,
  type CheckResult,
  type PageFetch,
} from '../../../src/seo/checks/index.js';
import { extractPageFacts } from '../../../src/seo/page/index.js';

/*
 * False findings seen auditing Debian's HTML manuals served on 127.0.0.1 (issue 48). Each fixture is an excerpt of
 * the page that produced the finding, as Debian ships it (python3.11-doc, debian-handbook, python-django-doc).
 */

const PY = 'http://127.0.0.1:8101/';

/** The head and breadcrumb every page of the Python 3.11 manual (python3.11-doc) carries. */
function pythonPage(path: string, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head>
<meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1.0" />
<title>${title} &#8212; Python 3.11.2 documentation</title>
<link rel="canonical" href="file:///usr/share/doc/python3.11/html/${path}" />
</head><body>
<div class="related" role="navigation" aria-label="related navigation"><h3>Navigation</h3><ul>
<li><a href="../genindex.html" title="General Index" accesskey="I">index</a></li>
<li class="nav-item nav-item-0"><a href="../index.html">3.11.2 Documentation</a> &#187;</li>
<li class="nav-item nav-item-this"><a href="">${title}</a></li>
</ul></div>
<div class="body" role="main"><h1>${title}</h1>${body}</div></body></html>`;
}

const PROSE =
  '<p>The Python interpreter has a number of functions and types built into it that are always available. They ' +
  'are listed here in alphabetical order, with a short description of what each one does and how to call it.</p>';

function fetchOf(url: string, page: Partial<PageFetch> = {}): PageFetch {
  return {
    url,
    finalUrl: url,
    status: 200,
    depth: 1,
    redirects: [],
    bytes: 5_000,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    ...page,
  };
}

function check(html: string, url: string, code: string, page: Partial<PageFetch> = {}): CheckResult {
  const fetch = fetchOf(url, page);
  const results = runPageChecks(extractPageFacts(html, { url, headers: fetch.headers, status: 200 }), fetch);
  return results.find((result) => result.code === code)!;
}

const verdict = (result: CheckResult | undefined): string =>
  !result?.applicable ? 'n/a' : result.failed ? 'fail' : 'pass';

describe('LINKS_UNCRAWLABLE follows Lighthouse crawlable-anchors', () => {
  const functions = pythonPage('library/functions.html', 'Built-in Functions', PROSE);

  it('passes the breadcrumb self-link <a href=""> of every Python manual page', () => {
    const url = `${PY}library/functions.html`;
    expect(verdict(check(functions, url, 'LINKS_UNCRAWLABLE'))).toBe('pass');
    // It is a link to the page itself, as a browser resolves it: not a crawl target of its own.
    const link = extractPageFacts(functions, { url }).links.find((l) => l.text === 'Built-in Functions');
    expect(link).toMatchObject({ href: '', kind: 'fragment', internal: true });
  });

  it.each([
    ['javascript:void(0)', '<a href="javascript:void(0)">Menu</a>'],
    ['a file: URL, even named', '<a href="file:///etc/hosts" name="hosts">Hosts</a>'],
    ['no href but an onclick handler', '<a onclick="go()">Go</a>'],
    ['no href but a target', '<a target="_blank">Open</a>'],
    ['an href that does not parse', '<a href="http://[bad">Bad</a>'],
  ])('still fails %s', (_name, anchor) => {
    const html = pythonPage('library/functions.html', 'Built-in Functions', `${PROSE}<p>${anchor}</p>`);
    expect(verdict(check(html, `${PY}library/functions.html`, 'LINKS_UNCRAWLABLE'))).toBe('fail');
  });

  it.each([
    ['a role', '<a href="javascript:void(0)" role="button">Menu</a>'],
    ['mailto:', '<a href="mailto:docs@python.org">Mail</a>'],
    ['an empty href with an id', '<a href="" id="top">Top</a>'],
    ['a plain placeholder <a>', '<a>Not a link</a>'],
    ['a javascript: action', '<a href="javascript:openMenu()">Open</a>'],
  ])('passes %s', (_name, anchor) => {
    const html = pythonPage('library/functions.html', 'Built-in Functions', `${PROSE}<p>${anchor}</p>`);
    expect(verdict(check(html, `${PY}library/functions.html`, 'LINKS_UNCRAWLABLE'))).toBe('pass');
  });
});

describe('a file:// canonical (every Python manual page)', () => {
  const home = pythonPage('index.html', 'Python 3.11.2 documentation', PROSE);

  it('is reported as an invalid canonical, and search engines would ignore it: the page stays indexable', () => {
    const url = `${PY}index.html`;
    const result = check(home, url, 'TECH_CANONICAL_INVALID');
    expect(result).toMatchObject({
      applicable: true,
      failed: true,
      evidence: { href: 'file:///usr/share/doc/python3.11/html/index.html' },
    });
    expect(nonIndexableReason(extractPageFacts(home, { url }), fetchOf(url))).toBeNull();
    expect(verdict(check(home, url, 'TECH_CANONICAL_OTHER_HOST'))).toBe('pass');
  });

  it('passes an http(s) canonical', () => {
    const html = home.replace('file:///usr/share/doc/python3.11/html/index.html', `${PY}index.html`);
    expect(verdict(check(html, `${PY}index.html`, 'TECH_CANONICAL_INVALID'))).toBe('pass');
  });

  it('no longer hides that / and /index.html serve one page (TECH_CANONICAL_MISSING)', () => {
    const pages = ['', 'index.html'].map((path) => {
      const url = `${PY}${path}`;
      return summarizePage(extractPageFacts(home, { url }), fetchOf(url));
    });
    const output = runSiteChecks({ startUrl: PY, pages });
    const missing = output.site.find((result) => result.code === 'TECH_CANONICAL_MISSING');
    expect(missing?.occurrences.map((occurrence) => occurrence.url)).toEqual([PY, `${PY}index.html`]);
  });
});

describe('a canonical to another host (every Debian handbook page)', () => {
  const HB = 'http://127.0.0.1:8102/';
  const apt = `<!DOCTYPE html><html><head><title>Chapter 6. Maintenance and Updates: The APT Tools</title>
<link xmlns="" rel="canonical" href="https://debian-handbook.info/browse/stable/apt.html" />
</head><body><div class="chapter"><h2>Chapter 6. Maintenance and Updates: The APT Tools</h2>${PROSE}</div>
</body></html>`;

  it('says so as the page is not indexable, and fails TECH_CANONICAL_OTHER_HOST', () => {
    const url = `${HB}apt.html`;
    expect(nonIndexableReason(extractPageFacts(apt, { url }), fetchOf(url))).toBe('canonical-other-host');
    expect(check(apt, url, 'TECH_CANONICAL_OTHER_HOST')).toMatchObject({
      applicable: true,
      failed: true,
      evidence: { canonical: 'https://debian-handbook.info/browse/stable/apt.html', host: 'debian-handbook.info' },
    });
  });

  it('passes a canonical on the same host, another scheme or the www. twin', () => {
    const url = 'https://example.org/apt.html';
    for (const target of ['https://example.org/apt', 'http://example.org/apt.html', 'https://www.example.org/apt']) {
      const html = apt.replace('https://debian-handbook.info/browse/stable/apt.html', target);
      expect(verdict(check(html, url, 'TECH_CANONICAL_OTHER_HOST'))).toBe('pass');
    }
    const same = apt.replace('https://debian-handbook.info/browse/stable/apt.html', 'https://example.org/apt');
    expect(nonIndexableReason(extractPageFacts(same, { url }), fetchOf(url))).toBe('canonicalized');
  });
});

describe('CONTENT_PLACEHOLDER_TEXT', () => {
  // ref/templates/builtins.html of python-django-doc: the documentation of the {% lorem %} tag.
  const loremTag = [
    '<!DOCTYPE html><html lang="en"><head><title>Built-in template tags and filters</title></head><body>',
    '<div class="section" id="s-lorem">',
    '<h3><code class="docutils literal notranslate"><span class="pre">lorem</span></code></h3>',
    '<p>Displays random “lorem ipsum” Latin text. This is useful for providing sample data in templates.</p>',
    '<p>Usage:</p>',
    '<div class="highlight-html+django notranslate"><div class="highlight"><pre><span></span>',
    '<span class="cp">{%</span> <span class="k">lorem</span> <span class="o">[</span><span class="nv">count</span>',
    '<span class="o">]</span> <span class="cp">%}</span>',
    '</pre></div></div>',
    '<ul><li><code class="docutils literal notranslate">{% lorem %}</code> will output the common “lorem ipsum” ',
    'paragraph.</li>',
    '<li><code>Lorem ipsum dolor sit amet, consectetur adipisicing elit</code></li></ul>',
    '<p>The first paragraph (“Lorem ipsum dolor sit amet…”) when generating paragraphs.</p>',
    '<pre>Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor</pre>',
    '<p><kbd>lorem ipsum dolor</kbd> <samp>Lorem ipsum dolor sit</samp> <var>lorem ipsum</var> ',
    '<q>Lorem ipsum dolor</q> and “<em>lorem ipsum</em>” quoted around markup.</p>',
    '</div></body></html>',
  ].join('\n');

  it('does not fire on the page that documents lorem ipsum: quoted, or in code, pre, kbd, samp, var, q', () => {
    expect(
      verdict(check(loremTag, 'http://127.0.0.1:8103/ref/templates/builtins.html', 'CONTENT_PLACEHOLDER_TEXT')),
    ).toBe('pass');
  });

  it('fires on placeholder copy after a paragraph that ends with a quotation mark', () => {
    const html = loremTag.replace(
      '<p>Usage:</p>',
      '<p>Usage: “{% lorem %}”</p><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod.</p>',
    );
    const result = check(html, 'http://127.0.0.1:8103/ref/templates/builtins.html', 'CONTENT_PLACEHOLDER_TEXT');
    expect(result).toMatchObject({ failed: true, evidence: { text: expect.stringMatching(/^Lorem ipsum dolor/) } });
  });

  it('fires on placeholder copy in body text', () => {
    const html = loremTag.replace(
      '<p>Usage:</p>',
      '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.</p>',
    );
    const result = check(html, 'http://127.0.0.1:8103/ref/templates/builtins.html', 'CONTENT_PLACEHOLDER_TEXT');
    expect(result).toMatchObject({ failed: true, evidence: { text: expect.stringMatching(/^Lorem ipsum dolor/) } });
  });
});

describe('CONTENT_IMAGE_ALT_FILENAME', () => {
  it.each([
    '../_images/postmortem.png',
    '_images/logging_flow.png',
    'https://example.org/img/photo.JPG',
    'C:\\Users\\me\\Pictures\\diagram.webp',
    'IMG_1234.jpg',
  ])('sees the path %s as a file name', (alt) => {
    expect(isFileNameAlt(alt)).toBe(true);
  });

  it.each(['Postmortem debugging with pdb', 'Logging flow: from logger to handler', 'Input/output in png format'])(
    'keeps the description %s',
    (alt) => {
      expect(isFileNameAlt(alt)).toBe(false);
    },
  );

  it('fails the Python manual page whose image alt is its path', () => {
    const html = pythonPage(
      'library/pdb.html',
      'pdb — The Python Debugger',
      `${PROSE}<img alt="../_images/postmortem.png" src="../_images/postmortem.png" width="10" height="10" />`,
    );
    expect(check(html, `${PY}library/pdb.html`, 'CONTENT_IMAGE_ALT_FILENAME')).toMatchObject({
      failed: true,
      evidence: { count: 1 },
    });
  });
});
