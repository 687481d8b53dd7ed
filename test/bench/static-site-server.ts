import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { SiteRecorder, serveSiteProcess } from './site-process.js';

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
  const file = join(entry.parentPath, entry.name);
  // A link to a file is served as the file (Debian's manuals link their scripts to shared packages); a dangling one is
  // missing, as on a web server.
  if (!entry.isFile() && !(entry.isSymbolicLink() && statSync(file, { throwIfNoEntry: false })?.isFile())) continue;
  const path = `/${relative(root, file).split(sep).join('/')}`;
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  files.set(path, { body: readFileSync(file), type, page: -1 });
}
for (const file of files.values()) if (file.type.startsWith('text/html')) file.page = htmlPages++;
const NOT_FOUND = Buffer.from('<!DOCTYPE html><title>Not found</title><h1>Not found</h1>');

const recorder = new SiteRecorder(htmlPages);
const { counters } = recorder;

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
      recorder.page(file.page, res);
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

serveSiteProcess(handle, recorder);
// The parent went away: never outlive it.
process.on('disconnect', () => process.exit(0));
