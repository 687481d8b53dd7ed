import { Parser, type Handler } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { DepthCappedParser, MAX_ELEMENT_DEPTH } from '../../../src/seo/page/index.js';
import { TREE_OPTIONS } from '../../../src/seo/extraction/index.js';

/** Every open, close and text event, with the depth the handler sees. */
function events(html: string, make: (h: Partial<Handler>) => Parser): { log: string[]; maxDepth: number } {
  const log: string[] = [];
  let depth = 0;
  let maxDepth = 0;
  const parser = make({
    onopentag: (name) => {
      log.push(`<${name}>`);
      maxDepth = Math.max(maxDepth, ++depth);
    },
    onclosetag: (name) => {
      log.push(`</${name}>`);
      depth--;
    },
    ontext: (text) => void log.push(text),
  });
  parser.end(html);
  return { log, maxDepth };
}
const capped = (h: Partial<Handler>) => new DepthCappedParser(h, TREE_OPTIONS);
const plain = (h: Partial<Handler>) => new Parser(h, TREE_OPTIONS);
const nested = (n: number, inner = 'x') => `${'<div>'.repeat(n)}${inner}${'</div>'.repeat(n)}`;

describe('DepthCappedParser', () => {
  it('is htmlparser2 itself below the cap (void elements, implied closes, svg, stray end tags)', () => {
    const html =
      '<!doctype html><html><head><title>T</title></head><body><p>a<p>b<br><img src=x></p></p>' +
      '<svg><path d="1"/><g><rect/></g></svg><ul><li>1<li>2</ul></span><form><form></form>' +
      `${nested(MAX_ELEMENT_DEPTH - 3)}</body></html>`;
    expect(events(html, capped)).toEqual(events(html, plain));
  });

  it('flattens every element opened past the cap and swallows its end tag, not an ancestor', () => {
    const html = `<body>${nested(2_000, '<a href="/in">in</a>')}<p>after</p></body>`;
    const { log, maxDepth } = events(html, capped);
    // 512 levels kept; the flattened elements are children of the deepest one, one after another.
    expect(maxDepth).toBe(MAX_ELEMENT_DEPTH + 1);
    // The paragraph after the deep part is a child of <body>, as it is in the page: no end tag closed body early.
    const after = log.indexOf('<p>');
    expect(log.slice(after - 1, after + 3)).toEqual(['</div>', '<p>', 'after', '</p>']);
    expect(log.at(-1)).toBe('</body>');
    const parser = new DepthCappedParser({}, TREE_OPTIONS);
    parser.end(html);
    expect(parser.flattened).toBe(2_000 - (MAX_ELEMENT_DEPTH - 1) + 1);
  });

  it('a self-closing SVG element past the cap owes no end tag', () => {
    const html = `<body><svg>${'<g>'.repeat(600)}<path/><path/>${'</g>'.repeat(600)}</svg><p>after</p></body>`;
    const { log } = events(html, capped);
    const after = log.indexOf('<p>');
    expect(log.slice(after - 1, after + 3)).toEqual(['</svg>', '<p>', 'after', '</p>']);
  });

  it('parses in time linear in depth: 200,000 nested elements in one piece', () => {
    // Quadratic before the cap (100,000 took ~5 s); a generous structural check: it finishes and flattens.
    const parser = new DepthCappedParser({}, TREE_OPTIONS);
    parser.end(nested(200_000));
    expect(parser.flattened).toBe(200_000 - MAX_ELEMENT_DEPTH);
  });
});
