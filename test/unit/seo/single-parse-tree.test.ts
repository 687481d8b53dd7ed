import type { AnyNode } from 'domhandler';
import { Parser, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import {
  compileExtraction,
  DocumentTee,
  TREE_OPTIONS,
  type ExtractorSpec,
  type PageExtraction,
} from '../../../src/seo/extraction/index.js';
import { extractPageFacts } from '../../../src/seo/page/index.js';
import { cleanSite, failingSite, type FixtureRoutes } from '../../fixtures/sites/index.js';
import { renderPage } from '../../bench/audit-site-pages.js';
import { BENCH_EXTRACTORS } from '../../bench/extraction-specs.js';

/**
 * extractPageFacts builds the document tree CSS and XPath extractors read while it tokenizes the page for its facts
 * (DocumentTee), instead of tokenizing the page a second time with parseDocument. That tree must be the one
 * parseDocument(html, TREE_OPTIONS) — the previous path, kept here as the reference — builds, on every kind of page.
 */

const URL_ = 'https://example.test/page';

const TRICKY: Record<string, string> = {
  'unclosed tags': '<html><body><div class="a"><p>one<p>two<li>three<div class="b">four<span>five</body>',
  tables:
    '<table class="t"><tr><td>a<td>b<tr><th scope=col>c</table><table><caption>x</caption><tbody><tr><td>1</td>' +
    '</tr></tbody><tfoot><tr><td>2</td></tr></tfoot></table>',
  template: '<head><template id="tpl"><p class="x">inside</p><a href="/t">t</a></template></head><p class="x">out</p>',
  'script and style text':
    '<script>if (a < b && c > d) { document.write("<p>not a tag</p>") }</script><style>p > a { color: red }' +
    '</style><noscript><img src="/n.png" alt="no js"></noscript><p>after</p>',
  entities:
    '<p title="&quot;q&quot; &amp; &lt;t&gt;">caf&eacute; &amp;amp; &#169; &#x2014; &nbsp;&copy ' +
    '&notanentity; AT&T</p>' +
    '<a href="/s?a=1&amp;b=2&c=3">link</a>',
  'CDATA-ish': '<p><![CDATA[ raw <b>bold</b> ]]></p><svg><![CDATA[ svg cdata ]]><text>t</text></svg><p>end</p>',
  comments: '<!-- head comment --><p>a<!-- inner <b>not bold</b> -->b</p><!--unclosed',
  'uppercase tags':
    '<HTML><HEAD><TITLE>Upper</TITLE><META NAME="Author" CONTENT="Ada"></HEAD><BODY><DIV ID="Main">' +
    '<A HREF="/X">X</A><IMG SRC="/i.png" ALT="I"></DIV></BODY></HTML>',
  'attributes without values':
    '<input type=checkbox checked disabled><option selected value=1>one</option><div hidden data-x>x</div>' +
    '<video controls autoplay muted src=/v.mp4></video><p class=>empty class</p>',
  'void and self-closing':
    '<br/><hr><p>a<br>b</p><img src=a.png /><div/>text after self-closed div<meta charset=utf-8/>',
  'processing instructions and doctype': '<?xml version="1.0"?><!DOCTYPE html><html><body><p>pi</p></body></html>',
  'foreign content':
    '<svg viewBox="0 0 10 10"><foreignObject><p>in svg</p></foreignObject><path d="M0 0"/></svg>' +
    '<math><mi>x</mi></math>',
  'stray end tags': '</p></div><p>a</span>b</p></body></html><p>after html</p>',
  'nested forms and lists':
    '<ul><li>a<ul><li>b</ul><li>c</ul><form><form><input name=q></form></form><dl><dt>t<dd>d</dl>',
  empty: '',
  'text only': 'just text & more',
};

/** Every HTML body of the fixture sites. */
function fixturePages(): [string, string][] {
  const sites: [string, FixtureRoutes][] = [
    [
      'failing',
      failingSite({
        origin: 'http://fail.test:8080',
        external: 'https://ext.test:8443',
        loopbackIp: 'http://127.0.0.1:9',
        otherHost: 'http://other.test',
        closed: 'http://127.0.0.1:1',
      }),
    ],
    ['clean', cleanSite({ origin: 'https://clean.test:8443', external: 'https://ext.test:8443' })],
  ];
  const pages: [string, string][] = [];
  for (const [site, routes] of sites) {
    for (const [path, response] of Object.entries(routes)) {
      const type = response.headers?.['content-type'];
      if (typeof response.body !== 'string' || (type !== undefined && !String(type).includes('html'))) continue;
      if (!/<(html|body|p|div)\b/i.test(response.body)) continue;
      pages.push([`${site} ${path}`, response.body]);
    }
  }
  return pages;
}

const benchPages = (): [string, string][] =>
  [0, 1, 2, 17, 999].map((i) => [
    `bench page ${i}`,
    renderPage({ pages: 1_000, seed: 20_261_121, sitemap: false }, i, 'http://bench.test:8080'),
  ]);

/** A node and its subtree as plain data: type, name, attributes, text, in document order. */
function shape(node: AnyNode): unknown {
  const base: Record<string, unknown> = { type: node.type };
  if ('name' in node) base.name = node.name;
  if ('attribs' in node) base.attribs = node.attribs;
  if ('data' in node) base.data = node.data;
  if ('children' in node) base.children = node.children.map(shape);
  return base;
}

const spec = (
  key: string,
  kind: ExtractorSpec['kind'],
  expression: string,
  over: Partial<ExtractorSpec> = {},
): ExtractorSpec => ({
  key,
  kind,
  expression,
  output: 'TEXT',
  attribute: null,
  match: 'ALL',
  regex: false,
  ignoreCase: false,
  ...over,
});

/** Extractors that read every corner of the tree the tricky pages build. */
const TREE_EXTRACTORS: ExtractorSpec[] = [
  spec('all_text', 'XPATH', '//*'),
  spec('all_inner', 'CSS', '*', { output: 'INNER_HTML' }),
  spec('text_nodes', 'XPATH', '//text()'),
  spec('comments', 'XPATH', '//comment()'),
  spec('hrefs', 'XPATH', '//@href | //@src | //@title | //@checked | //@content'),
  spec('cells', 'CSS', 'td, th, caption'),
  spec('tpl', 'CSS', 'template p.x', { output: 'INNER_HTML' }),
  spec('upper', 'CSS', 'meta[name=Author]', { output: 'ATTRIBUTE', attribute: 'content' }),
  spec('count', 'XPATH', 'count(//*)'),
  spec('scripts', 'CSS', 'script, style', { output: 'INNER_HTML' }),
  spec('hidden', 'CSS', '[hidden], [data-x], [selected]', { output: 'ATTRIBUTE', attribute: 'value' }),
];

const SPECS = [...BENCH_EXTRACTORS, ...TREE_EXTRACTORS].map((s, i) => ({ ...s, key: `${s.key}_${i}` }));

/** The previous path: the extractors over a tree of the page's own, parsed a second time by parseDocument. */
const reference = (html: string): PageExtraction =>
  compileExtraction(SPECS).evaluate(html, {
    budgetMs: Number.POSITIVE_INFINITY,
    document: parseDocument(html, TREE_OPTIONS),
  });

const pages = [...fixturePages(), ...benchPages(), ...Object.entries(TRICKY)];

describe('single-parse document tree', () => {
  it('covers the fixture sites', () => {
    expect(fixturePages().length).toBeGreaterThan(40);
  });

  it.each(pages)('%s: extraction values equal those over parseDocument', (_name, html) => {
    const facts = extractPageFacts(html, { url: URL_, extraction: { specs: SPECS, budgetMs: 60_000 } });
    expect(facts.extraction).toEqual(reference(html));
  });

  it.each(pages)('%s: the tree equals parseDocument', (_name, html) => {
    // As extractPageFacts tokenizes a page (its facts collector aside).
    const tee = new DocumentTee({});
    new Parser(tee, TREE_OPTIONS).end(html);
    const tree = tee.document;
    expect(shape(tree)).toEqual(shape(parseDocument(html, TREE_OPTIONS)));
  });

  it.each(pages)('%s: the page facts do not change when the tree is built', (_name, html) => {
    const { extraction, ...withTree } = extractPageFacts(html, {
      url: URL_,
      extraction: { specs: [spec('h', 'CSS', 'h1')] },
    });
    expect(extraction).toBeDefined();
    expect(withTree).toEqual(extractPageFacts(html, { url: URL_ }));
  });
});
