import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative, sep } from 'node:path';
import type { SiteMessage, SiteRequest } from './audit-site-server.js';

/**
 * Child-process entry serving a folder of files (a real site: Debian's PostgreSQL manual) on 127.0.0.1, as a
 * static host or a CDN would: every file read into memory before the server listens, so a response costs HTTP
 * only and never competes with the crawler under test for its event loop. Same IPC as audit-site-server.ts.
 */

const { root } = JSON.parse(process.argv[2] ?? '{}') as { root?: string };
if (!root) throw new Error('static-site-server: pass {"root":"<folder>"} as the first argument');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

interface File {
  body: Buffer;
  type: string;
  /** Index among the HTML pages, for the distinct-page count; -1 for other files. */
  page: number;
}

const files = new Map<string, File>();
let htmlPages = 0;
for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const path = `/${relative(root, join(entry.parentPath, entry.name)).split(sep).join('/')}`;
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  files.set(path, { body: readFileSync(join(entry.parentPath, entry.name)), type, page: -1 });
}
for (const file of files.values()) if (file.type.startsWith('text/html')) file.page = htmlPages++;
const NOT_FOUND = Buffer.from('<!DOCTYPE html><title>Not found</title><h1>Not found</h1>');

let seen = new Uint8Array(htmlPages);
let counters = { pages: 0, distinctPages: 0, head: 0, images: 0, other: 0, notFound: 0 };
let firstPageAtMs: number | null = null;
let lastPageAtMs: number | null = null;
let cpu = process.cpuUsage();

function lookup(path: string): File | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  return files.get(decoded.endsWith('/') ? `${decoded}index.html` : decoded);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split(/[?#]/)[0];
  const file = lookup(path);
  if (req.method === 'HEAD') counters.head++;
  if (!file) {
    counters.notFound++;
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'content-length': NOT_FOUND.length });
    res.end(NOT_FOUND);
    return;
  }
  if (req.method !== 'HEAD') {
    if (file.page >= 0) {
      firstPageAtMs ??= Date.now();
      res.once('finish', () => (lastPageAtMs = Date.now()));
      counters.pages++;
      if (!seen[file.page]) {
        seen[file.page] = 1;
        counters.distinctPages++;
      }
    } else if (file.type.startsWith('image/')) counters.images++;
    else counters.other++;
  }
  res.writeHead(200, {
    'content-type': file.type,
    'content-length': file.body.length,
    'cache-control': 'public, max-age=300',
  });
  // Node sends no body for HEAD on its own.
  res.end(file.body);
}

const server = createServer({ keepAliveTimeout: 10_000 }, handle);
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port } satisfies SiteMessage);
});

process.on('message', (msg: SiteRequest) => {
  if (msg.type === 'close') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
    return;
  }
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  process.send?.({ type: 'stats', ...counters, cpuMs, firstPageAtMs, lastPageAtMs } satisfies SiteMessage);
  if (msg.reset) {
    counters = { pages: 0, distinctPages: 0, head: 0, images: 0, other: 0, notFound: 0 };
    firstPageAtMs = lastPageAtMs = null;
    seen = new Uint8Array(htmlPages);
    cpu = process.cpuUsage();
  }
});
// The parent went away: never outlive it.
process.on('disconnect', () => process.exit(0));
