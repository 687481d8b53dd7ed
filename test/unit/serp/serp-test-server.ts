import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake provider saw: enough to assert method, path, query, headers and JSON body. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeReply {
  status?: number;
  /** Objects are sent as JSON; strings verbatim. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (for timeouts); the socket is destroyed when the server closes. */
  hang?: boolean;
}

export type FakeHandler = (request: SeenRequest, index: number) => FakeReply;

export interface FakeServer {
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const open: Server[] = [];

/** A local HTTP server on 127.0.0.1:0 standing in for a SERP provider. */
export function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      const reply = handler(seen, requests.length - 1);
      if (reply.hang) return;
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status ?? 200, {
        'content-type': typeof reply.body === 'string' ? 'text/plain' : 'application/json',
        ...reply.headers,
      });
      res.end(text);
    });
  });
  open.push(server);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        requests,
        close: () => closeServer(server),
      });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });
}

export async function closeAllFakeServers(): Promise<void> {
  await Promise.all(open.splice(0).map(closeServer));
}

/** A ranked list of organic results for the fake providers to page through. */
export interface FakeOrganic {
  url: string;
  title: string;
}

/** `count` distinct results on other sites, with the given URLs placed at 1-based positions. */
export function makeSerp(count: number, placed: Record<number, string> = {}): FakeOrganic[] {
  const list: FakeOrganic[] = [];
  for (let position = 1; position <= count; position += 1) {
    const url = placed[position] ?? `https://site${position}.test/page-${position}`;
    list.push({ url, title: `Result ${position}` });
  }
  return list;
}
