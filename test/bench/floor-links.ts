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
