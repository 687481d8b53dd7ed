import fc from 'fast-check';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serializeDocument } from '../../src/crawler/browser/page-renderer.js';
import { launchChromium } from '../../src/platform/chromium.js';
import { RENDER_CHROMIUM } from '../support/chromium.js';
import { describeWithChromium } from '../support/chromium-suite.js';

/**
 * The renderer's snapshot (serializeDocument: Chromium's serializer through DevTools) against the library call it
 * replaces, Playwright's page.content(), on the same loaded document: fixed cases and generated documents.
 */

/** Documents are served by routing (the browser is offline), as the renderer serves the crawler's response. */
const served = new Map<string, { type: string; body: string }>();
let next = 0;

const TEXT = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('&amp;', '&lt;b&gt;', '"quoted"', "it's", 'Ünïcödé ✓ 日本 😀', '&nbsp;', '<', '>', '&', '\u00a0'),
);
const ATTR_NAME = fc.constantFrom('id', 'class', 'title', 'href', 'data-x', 'lang', 'alt', 'hidden', 'aria-label');
const ATTRS = fc
  .array(fc.tuple(ATTR_NAME, TEXT), { maxLength: 3 })
  .map((attrs) => attrs.map(([name, value]) => ` ${name}="${value.replace(/"/g, '&quot;')}"`).join(''));
const TAG = fc.constantFrom('div', 'p', 'span', 'a', 'ul', 'li', 'table', 'tr', 'td', 'b', 'i', 'section', 'h1', 'h2');

/** A fragment of HTML, some of it malformed (unclosed or misnested tags), as real pages are. */
const { fragment } = fc.letrec<{ fragment: string }>((tie) => ({
  fragment: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    TEXT,
    fc
      .tuple(TAG, ATTRS, fc.array(tie('fragment'), { maxLength: 3 }), fc.boolean())
      .map(([tag, attrs, children, close]) => `<${tag}${attrs}>${children.join('')}${close ? `</${tag}>` : ''}`),
    fc.constantFrom(
      '<!-- a comment -->',
      '<br>',
      '<img src="/x.png" alt="x">',
      '<template><i>inert</i></template>',
      '<template shadowrootmode="open"><b>shadow</b></template>',
      '<svg viewBox="0 0 1 1"><title>icon</title><path d="M0 0"/></svg>',
      '<math><mi>x</mi></math>',
      '<noscript><p>no script</p></noscript>',
      '<textarea>a &lt; b</textarea>',
      '<pre>\n  kept\n</pre>',
      '<script type="application/ld+json">{"@type":"Thing","name":"a</b>"}</script>',
      '</p></div>',
    ),
  ),
}));

const DOCTYPE = fc.constantFrom(
  '',
  '<!doctype html>',
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
  '<!DOCTYPE html SYSTEM "about:legacy-compat">',
);

const DOCUMENT = fc
  .tuple(fc.boolean(), DOCTYPE, TEXT, fc.array(fragment, { maxLength: 6 }), fc.boolean())
  .map(
    ([commentFirst, doctype, title, body, commentLast]) =>
      `${commentFirst ? '<!-- before -->' : ''}${doctype}<html lang="en"><head><meta charset="utf-8">` +
      `<title>${title}</title></head><body>${body.join('')}</body></html>${commentLast ? '<!-- after -->' : ''}`,
  );

describeWithChromium(RENDER_CHROMIUM)("the renderer's snapshot is page.content()", () => {
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;

  const load = async (body: string, type = 'text/html; charset=utf-8') => {
    const path = `/doc/${next++}`;
    served.set(path, { type, body });
    await page.goto(`http://snapshot.test${path}`, { waitUntil: 'load' });
  };
  const both = async () => ({ snapshot: await serializeDocument(cdp), content: await page.content() });

  beforeAll(async () => {
    browser = await launchChromium(RENDER_CHROMIUM, undefined, {
      offline: true,
      disableFeatures: ['RenderDocument'],
    });
    const context = await browser.newContext();
    await context.route('**/*', async (route) => {
      const doc = served.get(new URL(route.request().url()).pathname);
      await (doc ? route.fulfill({ status: 200, contentType: doc.type, body: doc.body }) : route.abort());
    });
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const CASES: Record<string, { body: string; type?: string }> = {
    'comments around the root element': {
      body: '<!-- before --><!doctype html><html><head><title>t</title></head><body>x</body></html><!-- after -->',
    },
    'no doctype (quirks mode)': { body: '<html><head><title>t</title></head><body>x</body></html>' },
    'XHTML with an XML declaration': {
      body:
        '<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title>' +
        '</head><body><p>p</p></body></html>',
      type: 'application/xhtml+xml',
    },
    'a script that rewrote the DOM after load': {
      body:
        '<!doctype html><title>before</title><div id="app"></div><script>addEventListener("load", () => { ' +
        'document.title = "after"; document.getElementById("app").innerHTML = "<h1>Rendered</h1>"; });</script>',
    },
    'a page that redefines the getters and the serializer a script would use': {
      body:
        '<!doctype html><title>real</title><p>real body</p><script>' +
        'Object.defineProperty(Document.prototype, "documentElement", { get() { return null; } });' +
        'Object.defineProperty(Element.prototype, "outerHTML", { get() { return "<p>fake</p>"; } });' +
        'XMLSerializer.prototype.serializeToString = () => "fake";</script>',
    },
  };

  for (const [name, { body, type }] of Object.entries(CASES)) {
    it(name, async () => {
      await load(body, type);
      const { snapshot, content } = await both();
      expect(snapshot).toBe(content);
    });
  }

  it('generated documents, malformed ones among them', async () => {
    await fc.assert(
      fc.asyncProperty(DOCUMENT, async (body) => {
        await load(body);
        const { snapshot, content } = await both();
        expect(snapshot).toBe(content);
      }),
      { numRuns: 150 },
    );
  });
});
