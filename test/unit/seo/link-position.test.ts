import { describe, expect, it } from 'vitest';
import { extractPageFacts, type LinkPosition } from '../../../src/seo/page/index.js';

/** Each link's text and position, in document order. */
function positions(body: string): [string, LinkPosition][] {
  const facts = extractPageFacts(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`, {
    url: 'https://example.com/',
  });
  return facts.links.map((link) => [link.text, link.position]);
}

describe('link position: landmarks', () => {
  it('classifies links by the landmark element around them', () => {
    expect(
      positions(`
        <header><a href="/logo">logo</a></header>
        <nav><a href="/docs">docs</a></nav>
        <main><p>See <a href="/guide">guide</a></p></main>
        <article><a href="/post">post</a></article>
        <aside><a href="/related">related</a></aside>
        <footer><a href="/imprint">imprint</a></footer>
        <p><a href="/loose">loose</a></p>`),
    ).toEqual([
      ['logo', 'header'],
      ['docs', 'navigation'],
      ['guide', 'content'],
      ['post', 'content'],
      ['related', 'aside'],
      ['imprint', 'footer'],
      ['loose', 'content'],
    ]);
  });

  it('reads the ARIA landmark roles, and the first token of a role list', () => {
    expect(
      positions(`
        <div role="banner"><a href="/a">banner</a></div>
        <div role="navigation menu"><a href="/b">navigation</a></div>
        <div role="main"><a href="/c">main</a></div>
        <div role="complementary"><a href="/d">complementary</a></div>
        <div role="contentinfo"><a href="/e">contentinfo</a></div>
        <div role="presentation"><a href="/f">other role</a></div>`),
    ).toEqual([
      ['banner', 'header'],
      ['navigation', 'navigation'],
      ['main', 'content'],
      ['complementary', 'aside'],
      ['contentinfo', 'footer'],
      ['other role', 'content'],
    ]);
  });

  it("keeps an article's or a section's header and footer in the content (HTML-AAM scoping)", () => {
    expect(
      positions(`
        <main><article>
          <header><a href="/author">author</a></header>
          <p><a href="/body">body</a></p>
          <footer><a href="/tag">tag</a></footer>
        </article></main>
        <section><header><a href="/s">section header</a></header></section>
        <article><header role="banner"><a href="/x">explicit banner</a></header></article>
        <header><a href="/home">page header</a></header>`),
    ).toEqual([
      ['author', 'content'],
      ['body', 'content'],
      ['tag', 'content'],
      ['section header', 'content'],
      ['explicit banner', 'header'],
      ['page header', 'header'],
    ]);
  });

  it('lets the innermost landmark decide, and restores the outer one after it closes', () => {
    expect(
      positions(`
        <header><nav><a href="/menu">menu</a></nav><a href="/account">account</a></header>
        <main><nav aria-label="Breadcrumb"><a href="/">home</a></nav><a href="/in">in text</a></main>
        <footer><nav><a href="/sitemap">sitemap</a></nav><a href="/legal">legal</a></footer>`),
    ).toEqual([
      ['menu', 'navigation'],
      ['account', 'header'],
      ['home', 'navigation'],
      ['in text', 'content'],
      ['sitemap', 'navigation'],
      ['legal', 'footer'],
    ]);
  });

  it('follows implied end tags and void elements without losing its place', () => {
    expect(
      positions(`
        <nav><ul><li><a href="/a">a</a><li><img src="i.png"><br><a href="/b">b</a></ul></nav>
        <p>text<p><a href="/c">c</a>
        <footer><p><a href="/d">d</a></footer>
        <a href="/e">e</a>`),
    ).toEqual([
      ['a', 'navigation'],
      ['b', 'navigation'],
      ['c', 'content'],
      ['d', 'footer'],
      ['e', 'content'],
    ]);
  });
});

describe('link position: class and id patterns', () => {
  it('reads common region names outside the landmarks', () => {
    expect(
      positions(`
        <div id="header"><a href="/a">id header</a></div>
        <div class="container site-header"><a href="/b">site-header</a></div>
        <ul class="navbar-nav"><li><a href="/c">navbar-nav</a></li></ul>
        <div class="main_menu"><a href="/d">main_menu</a></div>
        <ol class="breadcrumbs"><li><a href="/e">breadcrumbs</a></li></ol>
        <div id="sidebar-left"><a href="/f">sidebar-left</a></div>
        <div class="footer-widgets"><a href="/g">footer-widgets</a></div>
        <div id="colophon"><a href="/h">colophon</a></div>`),
    ).toEqual([
      ['id header', 'header'],
      ['site-header', 'header'],
      ['navbar-nav', 'navigation'],
      ['main_menu', 'navigation'],
      ['breadcrumbs', 'navigation'],
      ['sidebar-left', 'aside'],
      ['footer-widgets', 'footer'],
      ['colophon', 'footer'],
    ]);
  });

  it("does not take a content component's name for a page region", () => {
    expect(
      positions(`
        <div class="card-header"><a href="/a">card</a></div>
        <div class="entry-footer"><a href="/b">entry</a></div>
        <li class="menu-item"><a href="/c">item</a></li>
        <a class="nav-link" href="/d">link class</a>
        <div class="navigational-aid"><a href="/e">longer word</a></div>`),
    ).toEqual([
      ['card', 'content'],
      ['entry', 'content'],
      ['item', 'content'],
      ['link class', 'content'],
      ['longer word', 'content'],
    ]);
  });

  it('reads a long class name in one pass (no backtracking blow-up)', () => {
    const long = `header${'1'.repeat(5_000)}x nav-${'-'.repeat(5_000)}`;
    expect(positions(`<div class="${long}"><a href="/a">a</a></div>`)).toEqual([['a', 'content']]);
  });

  it('does not read the body class, and reads no pattern inside a landmark', () => {
    const facts = extractPageFacts(
      `<html><body class="has-sidebar sidebar"><main><div class="sidebar"><a href="/a">in main</a></div></main>
       <a href="/b">loose</a></body></html>`,
      { url: 'https://example.com/' },
    );
    expect(facts.links.map((link) => [link.text, link.position])).toEqual([
      ['in main', 'content'],
      ['loose', 'content'],
    ]);
  });

  it('lets a landmark inside a patterned region decide', () => {
    expect(
      positions(`<div id="header"><nav><a href="/a">nav</a></nav><a href="/b">header</a></div>
        <div class="sidebar"><div class="menu"><a href="/c">menu</a></div><a href="/d">side</a></div>`),
    ).toEqual([
      ['nav', 'navigation'],
      ['header', 'header'],
      ['menu', 'navigation'],
      ['side', 'aside'],
    ]);
  });
});

describe('link position: default', () => {
  it('is content for a page without any landmark or pattern, and for image-map areas', () => {
    expect(
      positions(`<div><p><a href="/a">a</a></p></div><map name="m"><area href="/b" alt="b"></map>
        <footer><map name="n"><area href="/c" alt="c"></map></footer>`),
    ).toEqual([
      ['a', 'content'],
      ['b', 'content'],
      ['c', 'footer'],
    ]);
  });

  it('counts noscript and template content in the element depth without giving their links', () => {
    expect(
      positions(`<nav><noscript><div><a href="/x">x</a></div></noscript><a href="/a">a</a></nav>
        <template><footer></footer></template><a href="/b">b</a>`),
    ).toEqual([
      ['a', 'navigation'],
      ['b', 'content'],
    ]);
  });
});
