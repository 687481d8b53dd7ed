import { describe, expect, it } from 'vitest';
import { cspSafeMarkup } from '../../../facades/web/src/ssr/csp-safe-markup.js';
import { createHash } from 'node:crypto';
import {
  inlineStylesheets,
  linkedStylesheets,
  rootHtml,
  scriptSafeJson,
  stateHtml,
  splitTemplate,
} from '../../../facades/http/server-render.js';

const HIDDEN =
  'style="border:0;clip:rect(0 0 0 0);clip-path:inset(50%);height:1px;margin:-1px;overflow:hidden;padding:0;' +
  'position:absolute;width:1px;white-space:nowrap"';

describe('server markup under the CSP (style-src and script-src self)', () => {
  it('react-aria’s visually hidden style becomes the app’s class; image preload hints go', () => {
    const markup = `<span ${HIDDEN}>Organization</span><link rel="preload" as="image" href="/favicon.svg"/><p>x</p>`;
    expect(cspSafeMarkup(markup)).toBe('<span class="visually-hidden">Organization</span><p>x</p>');
  });

  it('a select’s hidden twin (visually hidden, fixed) gets the class too; display:none becomes hidden', () => {
    const container = HIDDEN.replace('position:absolute;', 'position:fixed;').replace('"', '"').slice(0, -1);
    const markup =
      `<div aria-hidden="true" ${container};top:0;left:0"><label><select tabindex="-1"></select></label></div>` +
      '<input class="field" style="display:none" type="text"/>';
    expect(cspSafeMarkup(markup)).toBe(
      '<div aria-hidden="true" class="visually-hidden"><label><select tabindex="-1"></select></label></div>' +
        '<input class="field" type="text" hidden=""/>',
    );
    expect(cspSafeMarkup(`<span class="a" ${HIDDEN}>x</span>`)).toBe('<span class="a visually-hidden">x</span>');
  });

  it('any other style attribute fails a build-time render, and is dropped from a per-request one', () => {
    const markup =
      '<div class="virtual-list" style="height:5000px"><div style="transform:translateY(52px)">a</div></div>';
    expect(() => cspSafeMarkup(markup)).toThrow(/inline style attribute/);
    expect(cspSafeMarkup(markup, 'drop')).toBe('<div class="virtual-list"><div>a</div></div>');
  });

  it('text that reads like an attribute is text, and stays', () => {
    // React escapes quotes in text, so ` style="` cannot occur outside a tag.
    const markup = '<p>a style=&quot;color:red&quot; b</p><code>&lt;div style=&quot;x&quot;&gt;</code>';
    expect(cspSafeMarkup(markup, 'drop')).toBe(markup);
  });

  it('an inline script fails the render either way (the page is then left to the browser)', () => {
    expect(() => cspSafeMarkup('<p>a</p><script>restore()</script>', 'drop')).toThrow(/inline script/);
    expect(() => cspSafeMarkup('<SCRIPT src="/x.js"></SCRIPT>', 'drop')).toThrow(/inline script/);
  });
});

describe('the page’s state and template', () => {
  it('JSON that cannot close its script element or start a comment, and parses back to the same value', () => {
    const value = { name: '</script><script>alert(1)</script><!-- \u2028 \u2029', n: 1 };
    const json = scriptSafeJson(value);
    expect(json).not.toMatch(/<|\u2028|\u2029/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('the head goes first without the session preload or chunk preloads; the entry script follows #root', () => {
    const template = [
      '<html><head><link rel="preload" as="fetch" href="/api/auth/get-session" crossorigin="use-credentials" />',
      '<script type="module" crossorigin src="/assets/index-a.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/web-b.js">',
      '<link rel="stylesheet" crossorigin href="/assets/web-c.css"></head>',
      '<body><div id="root"></div><noscript>x</noscript></body></html>',
    ].join('\n');
    const parts = splitTemplate(template)!;
    expect(parts.head).toBe(
      '<html><head>\n<link rel="stylesheet" crossorigin href="/assets/web-c.css"></head>\n<body>',
    );
    const page = parts.head + rootHtml({ markup: '<p>hi</p>' }) + stateHtml('{}') + parts.tail;
    expect(page.indexOf('<p>hi</p>')).toBeLessThan(page.indexOf('index-a.js'));
    expect(page).toContain('<script type="application/json" id="ssr-state">{}</script>');
    expect(page).not.toContain('modulepreload');
    expect(page).toMatch(/<noscript>x<\/noscript><\/body><\/html>$/);
    expect(parts.head + rootHtml(null) + parts.tail).toContain('<div id="root"></div>');
    expect(splitTemplate('<html><body><div id="app"></div></body></html>')).toBeNull();
  });

  it("the app's stylesheets go inline, each allowed by the hash of exactly its text; others stay linked", () => {
    const head = [
      '<head><link rel="icon" href="/favicon.svg" />',
      '<link rel="stylesheet" crossorigin href="/assets/web-c.css">',
      '<link rel="stylesheet" crossorigin href="/assets/gone-d.css">',
      '<link rel="stylesheet" crossorigin href="/assets/odd-e.css"></head>',
    ].join('\n');
    expect(linkedStylesheets(head)).toEqual(['web-c.css', 'gone-d.css', 'odd-e.css']);
    const css = '.a{color:red}.b::after{content:"é"}';
    const { head: inlined, styleHashes } = inlineStylesheets(
      head,
      new Map([
        ['web-c.css', css],
        ['odd-e.css', '.x{content:"</STYLE><script>alert(1)</script>"}'],
      ]),
    );
    expect(inlined).toContain(`<style>${css}</style>`);
    expect(inlined).not.toContain('web-c.css');
    // Missing, or able to end its element early: left as the link it was.
    expect(inlined).toContain('<link rel="stylesheet" crossorigin href="/assets/gone-d.css">');
    expect(inlined).toContain('<link rel="stylesheet" crossorigin href="/assets/odd-e.css">');
    expect(inlined).not.toContain('alert');
    // What a browser hashes: the element's text as UTF-8.
    expect(styleHashes).toEqual([`sha256-${createHash('sha256').update(Buffer.from(css, 'utf8')).digest('base64')}`]);
    expect(inlineStylesheets('<head></head>', new Map())).toEqual({ head: '<head></head>', styleHashes: [] });
  });
});
