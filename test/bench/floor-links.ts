import { Parser } from 'htmlparser2';

/**
 * The floor's parse of a page (audit-floor-crawl.ts, and the stages bench beside ours): the hrefs of its `<a>`
 * elements, by htmlparser2's tokenizer events (no tree).
 */
export function linksOf(html: string): string[] {
  const hrefs: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'a' && attribs.href) hrefs.push(attribs.href);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return hrefs;
}

/**
 * The floor's work on one page after its fetch: its `<a href>`s resolved against `pageUrl`, without fragments, and
 * those on `host` not in `seen` yet added to it and returned (the URLs to queue).
 */
export function newLinksOf(html: string, pageUrl: string, host: string, seen: Set<string>): string[] {
  const found: string[] = [];
  for (const href of linksOf(html)) {
    let target: URL;
    try {
      target = new URL(href, pageUrl);
    } catch {
      continue;
    }
    target.hash = '';
    if (target.host !== host || seen.has(target.href)) continue;
    seen.add(target.href);
    found.push(target.href);
  }
  return found;
}
