import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  IMAGE_POOL,
  PNG_BYTES,
  pageIndexOf,
  renderPage,
  renderRobots,
  renderSitemap,
  type SiteSpec,
} from './audit-site-pages.js';
import { SiteRecorder, serveSiteProcess } from './site-process.js';

/**
 * Child-process entry serving the generated site on 127.0.0.1, apart from the crawler under test so that
 * rendering pages never competes with it for one event loop. Talks to the parent over IPC.
 */

export type SiteRequest = { type: 'stats'; reset: boolean } | { type: 'close' };

export interface SiteStats {
  /** 200 HTML page responses (GET). */
  pages: number;
  /** Distinct pages served since the last reset: a crawler that fetched one page twice shows here. */
  distinctPages: number;
  head: number;
  images: number;
  other: number;
  notFound: number;
  /** CPU this process spent since the last reset (render + HTTP), in ms. */
  cpuMs: number;
  /**
   * Wall clock (epoch ms) of the first page request and of the end of the answer to the last page served for the first
   * time, since the reset (a page asked for again does not move it: SiteRecorder.page).
   */
  firstPageAtMs: number | null;
  lastPageAtMs: number | null;
}

export type SiteMessage = { type: 'listening'; port: number } | ({ type: 'stats' } & SiteStats);

const spec = JSON.parse(process.argv[2] ?? '{}') as SiteSpec & { prerender?: boolean };
if (!(spec.pages > 0))
  throw new Error('audit-site-server: pass {"pages":N,"seed":S,"sitemap":B} as the first argument');

const CSS = Buffer.from('body{font:16px/1.5 system-ui;margin:0 auto;max-width:46rem}img{max-width:100%;height:auto}\n');
const sitemaps = new Map<string, Buffer>();

/**
 * Every page rendered once, before the server listens, so serving a page costs only HTTP (as a static site
 * or a CDN would) and the render never competes for CPU with the crawler being measured. Pages are
 * rendered with a placeholder origin and kept as the byte runs between its occurrences; a response joins
 * them around the origin the client asked for.
 */
const ORIGIN_MARK = 'http://origin.invalid';
const renderParts = (i: number) =>
  renderPage(spec, i, ORIGIN_MARK)
    .split(ORIGIN_MARK)
    .map((part) => Buffer.from(part));
// spec.prerender false: rendered per request instead (100,000 pages would hold ~1.3 GB here).
const prerendered: Buffer[][] | null =
  spec.prerender === false ? null : Array.from({ length: spec.pages }, (_, i) => renderParts(i));

function pageBytes(index: number, origin: string): Buffer {
  const parts = prerendered ? prerendered[index] : renderParts(index);
  const originBytes = Buffer.from(origin);
  const chunks: Buffer[] = [parts[0]];
  for (let k = 1; k < parts.length; k++) chunks.push(originBytes, parts[k]);
  return Buffer.concat(chunks);
}
const recorder = new SiteRecorder(spec.pages);
const { counters } = recorder;

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: Buffer | string,
  cache = 'public, max-age=300',
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': type, 'content-length': bytes.length, 'cache-control': cache });
  // Node sends no body for HEAD on its own.
  res.end(bytes);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
  const path = (req.url ?? '/').split('?')[0];
  if (req.method === 'HEAD') counters.head++;
  const index = pageIndexOf(spec, path);
  if (index !== null) {
    if (req.method !== 'HEAD') {
      recorder.page(index, res);
    }
    send(res, 200, 'text/html; charset=utf-8', pageBytes(index, origin));
    return;
  }
  const image = /^\/img\/(\d+)\.png$/.exec(path);
  if (image && Number(image[1]) < IMAGE_POOL) {
    counters.images++;
    send(res, 200, 'image/png', PNG_BYTES, 'public, max-age=31536000, immutable');
    return;
  }
  counters.other++;
  switch (path) {
    case '/robots.txt':
      return send(res, 200, 'text/plain; charset=utf-8', renderRobots(spec, origin));
    case '/sitemap.xml': {
      if (!spec.sitemap) break;
      let xml = sitemaps.get(origin);
      if (!xml) sitemaps.set(origin, (xml = Buffer.from(renderSitemap(spec, origin))));
      return send(res, 200, 'application/xml', xml);
    }
    case '/favicon.ico':
      return send(res, 200, 'image/x-icon', PNG_BYTES, 'public, max-age=86400');
    case '/static/site.css':
      return send(res, 200, 'text/css', CSS, 'public, max-age=86400');
  }
  counters.notFound++;
  send(res, 404, 'text/html; charset=utf-8', '<!DOCTYPE html><title>Not found</title><h1>Not found</h1>');
}

serveSiteProcess(handle, recorder);
// The parent went away: never outlive it.
process.on('disconnect', () => process.exit(0));
