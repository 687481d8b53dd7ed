import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Child-process entry serving the render bench's generated site on 127.0.0.1: `pages` client-rendered pages
 * (/p/0 ... /p/N-1), each an empty shell whose inline script renders the title, a heading, ~150 words and 8 links
 * from the page's inline JSON data, as a hydrating React or Vue page does. The raw HTML has no title and no link:
 * only a renderer finds page 1 from page 0. Pages are built before listening; the server costs HTTP only.
 */

export type RenderSiteMessage =
  { type: 'listening'; port: number } | { type: 'stats'; pages: number; distinctPages: number; other: number };
export type RenderSiteRequest = { type: 'stats'; reset: boolean } | { type: 'close' };

const { pages = 0 } = JSON.parse(process.argv[2] ?? '{}') as { pages?: number };
if (pages < 2) throw new Error('render-site-server: pass {"pages":N} (N >= 2) as the first argument');

const WORDS = (
  'render crawl index canonical sitemap anchor heading content browser script layout schema product article ' +
  'search engine page link title description image mobile speed secure structured data'
).split(' ');

/** Links of page i: the next page first (every page is reachable), then pages spread over the site. */
function linksOf(i: number): number[] {
  const targets = [i + 1, i + 2, i * 2 + 1, i * 3 + 7, (i * 7919) % pages, (i + pages / 2) | 0, 0, (i * 31) % pages];
  return [...new Set(targets.map((t) => t % pages))].filter((t) => t !== i);
}

function pageHtml(i: number): string {
  const words: string[] = [];
  for (let w = 0; w < 150; w++) words.push(WORDS[(i * 13 + w * 7) % WORDS.length]);
  const data = {
    title: `Client-rendered page ${i} of the render bench`,
    description: `Page ${i}: rendered in the browser from inline data.`,
    text: words.join(' '),
    links: linksOf(i).map((t) => ({ href: `/p/${t}`, text: `Page ${t}` })),
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title></title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><div id="app"></div>
<script>window.__DATA__ = ${JSON.stringify(data)};</script>
<script>
(function () {
  var d = window.__DATA__, app = document.getElementById('app');
  document.title = d.title;
  var meta = document.createElement('meta'); meta.name = 'description'; meta.content = d.description;
  document.head.appendChild(meta);
  var h1 = document.createElement('h1'); h1.textContent = d.title; app.appendChild(h1);
  var p = document.createElement('p'); p.textContent = d.text; app.appendChild(p);
  var nav = document.createElement('nav');
  d.links.forEach(function (l) {
    var a = document.createElement('a'); a.href = l.href; a.textContent = l.text; nav.appendChild(a);
  });
  app.appendChild(nav);
})();
</script></body></html>`;
}

const bodies = Array.from({ length: pages }, (_, i) => Buffer.from(pageHtml(i)));
let seen = new Uint8Array(pages);
let counters = { pages: 0, distinctPages: 0, other: 0 };

const server = createServer((req, res) => {
  const match = /^\/p\/(\d+)$/.exec(req.url ?? '');
  const index = match ? Number(match[1]) : -1;
  if (index >= 0 && index < pages) {
    counters.pages++;
    if (!seen[index]) {
      seen[index] = 1;
      counters.distinctPages++;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': bodies[index].length });
    res.end(bodies[index]);
    return;
  }
  counters.other++;
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found');
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => {
  process.send!({ type: 'listening', port: (server.address() as AddressInfo).port } satisfies RenderSiteMessage);
});
process.on('message', (m: RenderSiteRequest) => {
  if (m.type === 'close') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
    return;
  }
  process.send!({ type: 'stats', ...counters } satisfies RenderSiteMessage);
  if (m.reset) {
    seen = new Uint8Array(pages);
    counters = { pages: 0, distinctPages: 0, other: 0 };
  }
});
process.on('disconnect', () => process.exit(0));
