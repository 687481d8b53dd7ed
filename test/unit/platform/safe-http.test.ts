import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createSecureServer as createHttp2Server } from 'node:http2';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SafeHttpError, createSafeHttpClient, parseAllowList } from '../../../src/platform/safe-http/index.js';
import type { LookupFunction, SafeHttpClient, SafeHttpClientOptions } from '../../../src/platform/safe-http/index.js';

// ---- local servers that count what reaches them --------------------------------------------------

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  servername?: string | false | null;
}

interface TestServer {
  origin: string;
  port: number;
  requests: SeenRequest[];
  connections: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, server: TestServer) => void;

const servers: TestServer[] = [];
const clients: SafeHttpClient[] = [];

function track(server: Server, protocol: 'http' | 'https', handler: Handler): Promise<TestServer> {
  return new Promise((resolve) => {
    const state: TestServer = {
      origin: '',
      port: 0,
      requests: [],
      connections: 0,
      close: () =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    };
    server.on('connection', () => {
      state.connections += 1;
    });
    server.on('secureConnection', () => {
      state.connections += 1;
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      state.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        servername: (req.socket as TLSSocket).servername,
      });
      handler(req, res, state);
    });
    server.listen(0, '127.0.0.1', () => {
      state.port = (server.address() as AddressInfo).port;
      state.origin = `${protocol}://127.0.0.1:${state.port}`;
      servers.push(state);
      resolve(state);
    });
  });
}

function startServer(handler: Handler): Promise<TestServer> {
  return track(createServer(), 'http', handler);
}

function client(options: SafeHttpClientOptions = {}): SafeHttpClient {
  const created = createSafeHttpClient(options);
  clients.push(created);
  return created;
}

/** A resolver that answers from a table (and records the names asked for). */
function fakeLookup(table: Record<string, string[]>, calls: string[] = []): LookupFunction {
  return (hostname, _options, callback) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      return;
    }
    callback(
      null,
      addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
}

async function failure(promise: Promise<unknown>): Promise<SafeHttpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SafeHttpError);
    return error as SafeHttpError;
  }
  throw new Error('expected the request to fail');
}

// Every TCP socket this process opens, to prove refusals happen before any connection attempt.
const openedSockets: unknown[] = [];
const onSocket = (message: unknown): void => {
  openedSockets.push((message as { socket: unknown }).socket);
};
beforeAll(() => subscribe('net.client.socket', onSocket));
afterAll(() => unsubscribe('net.client.socket', onSocket));

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ok: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<h1>internal</h1>');
};

// ---- refusals --------------------------------------------------------------------------------------

describe('refuses internal targets by default', () => {
  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}/`, 'loopback'],
    ['[::1]', (port: number) => `http://[::1]:${port}/`, 'loopback'],
    ['[::ffff:127.0.0.1]', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`, 'loopback'],
    ['decimal 2130706433', (port: number) => `http://2130706433:${port}/`, 'loopback'],
    ['hex 0x7f.1', (port: number) => `http://0x7f.1:${port}/`, 'loopback'],
    ['octal 0177.0.0.1', (port: number) => `http://0177.0.0.1:${port}/`, 'loopback'],
    ['0.0.0.0', (port: number) => `http://0.0.0.0:${port}/`, 'unspecified'],
  ])('%s', async (_label, makeUrl, addressClass) => {
    const internal = await startServer(ok);
    const sockets = openedSockets.length;
    const error = await failure(client().request(makeUrl(internal.port)));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(error.addressClass).toBe(addressClass);
    expect(internal.requests).toHaveLength(0);
    expect(internal.connections).toBe(0);
    expect(openedSockets.length).toBe(sockets);
  });

  it.each([
    ['http://10.0.0.1/', 'private', /private network address/],
    ['http://169.254.169.254/latest/meta-data/', 'linkLocal', /link-local/],
    ['http://100.64.0.1/', 'carrierGradeNat', /carrier-grade NAT/],
  ])('%s is refused before any connection attempt', async (url, addressClass, message) => {
    const sockets = openedSockets.length;
    const error = await failure(client().request(url));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(error.addressClass).toBe(addressClass);
    expect(error.message).toMatch(message);
    expect(openedSockets.length).toBe(sockets);
  });

  it('refuses a host name that resolves to 127.0.0.1 (rebinding), checked at connect time', async () => {
    const internal = await startServer(ok);
    const calls: string[] = [];
    const http = client({ lookup: fakeLookup({ 'rebind.test': ['127.0.0.1'] }, calls) });
    const sockets = openedSockets.length;
    const error = await failure(http.request(`http://rebind.test:${internal.port}/`));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    // The user typed the name; what it resolved to on our network (127.0.0.1, "loopback") is not theirs to read.
    expect(error.message).toBe(
      'Refused: rebind.test resolves to an address that is not allowed (private, loopback or reserved)',
    );
    expect(error.message).not.toContain('127.0.0.1');
    expect(error.message).not.toMatch(/a loopback address/);
    expect(error.addressClass).toBe('loopback');
    expect(error.url).toBe(`http://rebind.test:${internal.port}/`);
    expect(calls).toEqual(['rebind.test']);
    expect(internal.requests).toHaveLength(0);
    expect(openedSockets.length).toBe(sockets);
  });

  it('refuses a name with one public and one private address without connecting to either', async () => {
    const internal = await startServer(ok);
    const http = client({ lookup: fakeLookup({ 'mixed.test': ['93.184.216.34', '127.0.0.1'] }) });
    const sockets = openedSockets.length;
    const error = await failure(http.request(`http://mixed.test:${internal.port}/`));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(internal.requests).toHaveLength(0);
    expect(openedSockets.length).toBe(sockets);
  });

  it.each([
    ['a name resolving to loopback', (port: number) => `http://localhost:${port}/secret`],
    ['a literal IPv6 loopback', (port: number) => `http://[::1]:${port}/secret`],
    ['a private address', () => 'http://10.0.0.1/secret'],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses a redirect from an allow-listed server to %s', async (_label, makeTarget) => {
    const internal = await startServer(ok);
    const target = makeTarget(internal.port);
    const front = await startServer((_req, res) => {
      res.writeHead(302, { location: target });
      res.end();
    });
    const http = client({ allowHosts: ['127.0.0.1'], lookup: fakeLookup({ localhost: ['127.0.0.1'] }) });
    const error = await failure(http.request(`${front.origin}/start`));
    expect(error.code).toBe('BLOCKED_ADDRESS');
    expect(error.redirects).toEqual([{ url: `${front.origin}/start`, status: 302 }]);
    expect(front.requests).toHaveLength(1);
    expect(internal.requests).toHaveLength(0);
    expect(internal.connections).toBe(0);
  });

  it.each([
    ['ftp://example.com/file', 'UNSUPPORTED_SCHEME'],
    ['file:///etc/passwd', 'UNSUPPORTED_SCHEME'],
    ['http://user:secret@example.com/', 'INVALID_URL'],
    ['not a url', 'INVALID_URL'],
  ])('refuses %s with %s', async (url, code) => {
    const error = await failure(client().request(url));
    expect(error.code).toBe(code);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const front = await startServer((_req, res) => {
      res.writeHead(301, { location: 'file:///etc/passwd' });
      res.end();
    });
    const error = await failure(client({ allowCidrs: ['127.0.0.0/8'] }).request(front.origin));
    expect(error.code).toBe('UNSUPPORTED_SCHEME');
  });

  it('reports a name that does not resolve as DNS_FAILURE', async () => {
    const error = await failure(client({ lookup: fakeLookup({}) }).request('http://missing.test/'));
    expect(error.code).toBe('DNS_FAILURE');
  });
});

// ---- allow-listed fetches ------------------------------------------------------------------------

describe('allow-listed targets', () => {
  it('fetches 127.0.0.1 when its CIDR is allow-listed and returns the response shape', async () => {
    const server = await startServer((_req, res) => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-custom': 'yes' });
      res.end('<h1>hello</h1>');
    });
    const http = client(parseAllowList('127.0.0.0/8,::1/128'));
    const sockets = openedSockets.length;
    const response = await http.request(`${server.origin}/page?q=1#frag`);
    // Sanity check of the socket probe the refusal tests rely on.
    expect(openedSockets.length).toBeGreaterThan(sockets);
    expect(response).toMatchObject({
      url: `${server.origin}/page?q=1`,
      finalUrl: `${server.origin}/page?q=1`,
      status: 200,
      httpVersion: '1.1',
      redirects: [],
      contentEncoding: null,
      bytes: 14,
      truncated: false,
    });
    expect(response.body.toString()).toBe('<h1>hello</h1>');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['x-custom']).toBe('yes');
    expect(response.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(response.timings.startedAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(response.timings.totalMs).toBeGreaterThanOrEqual(response.timings.ttfbMs);
    const seen = server.requests[0];
    expect(seen.headers['user-agent']).toBe('SEOAuditBot/1.0 (+https://github.com/seo-audit-platform)');
    expect(seen.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(seen.url).toBe('/page?q=1');
  });

  it('connects to the checked address of a resolved name and keeps the Host header', async () => {
    const server = await startServer(ok);
    const calls: string[] = [];
    const http = client({
      allowCidrs: ['127.0.0.0/8'],
      lookup: fakeLookup({ 'site.test': ['127.0.0.1'] }, calls),
      userAgent: 'TestBot/2.0',
    });
    const response = await http.request(`http://site.test:${server.port}/`, { headers: { 'X-Trace': 'abc' } });
    expect(response.status).toBe(200);
    expect(server.requests[0].headers.host).toBe(`site.test:${server.port}`);
    expect(server.requests[0].headers['user-agent']).toBe('TestBot/2.0');
    expect(server.requests[0].headers['x-trace']).toBe('abc');
    expect(calls).toEqual(['site.test']);
  });

  it('trusts an allow-listed host name whatever it resolves to', async () => {
    const server = await startServer(ok);
    const http = client({ allowHosts: ['intranet.local'], lookup: fakeLookup({ 'intranet.local': ['127.0.0.1'] }) });
    expect((await http.request(`http://intranet.local:${server.port}/`)).status).toBe(200);
    expect(server.requests).toHaveLength(1);
  });

  it('verifies TLS against the original host name and sends it as SNI', async () => {
    const server = await track(createTlsServer({ key: TEST_KEY, cert: TEST_CERT }), 'https', ok);
    const http = client({
      allowCidrs: ['127.0.0.0/8'],
      lookup: fakeLookup({ 'secure.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] }),
      ca: TEST_CERT,
    });
    const response = await http.request(`https://secure.test:${server.port}/`);
    expect(response.status).toBe(200);
    expect(server.requests[0].servername).toBe('secure.test');
    // Same address, wrong name: the certificate does not cover it.
    const error = await failure(http.request(`https://other.test:${server.port}/`));
    expect(error.code).toBe('CONNECTION_FAILED');
    expect(error.message).toMatch(/TLS/);
  });

  it('reports HTTP/2 when h2 is negotiated', async () => {
    const server = createHttp2Server({ key: TEST_KEY, cert: TEST_CERT, allowHTTP1: true }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('over h2');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const options = {
        allowCidrs: ['127.0.0.0/8'],
        lookup: fakeLookup({ 'secure.test': ['127.0.0.1'] }),
        ca: TEST_CERT,
      };
      const h2 = await client({ ...options, allowH2: true }).request(`https://secure.test:${port}/`);
      expect(h2.httpVersion).toBe('2');
      expect(h2.body.toString()).toBe('over h2');
      const h1 = await client(options).request(`https://secure.test:${port}/`);
      expect(h1.httpVersion).toBe('1.1');
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses request headers that would change framing or routing', async () => {
    const http = client({ allowCidrs: ['127.0.0.0/8'] });
    await expect(http.request('http://127.0.0.1:1/', { headers: { Host: 'evil.test' } })).rejects.toThrow(TypeError);
  });

  it('reports a closed port as CONNECTION_FAILED', async () => {
    const server = await startServer(ok);
    const port = server.port;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const error = await failure(client({ allowCidrs: ['127.0.0.0/8'] }).request(`http://127.0.0.1:${port}/`));
    expect(error.code).toBe('CONNECTION_FAILED');
  });
});

// ---- redirects ------------------------------------------------------------------------------------

describe('redirects', () => {
  /** /r/N redirects to /r/N-1 ... /r/0 answers 200; /loop/a <-> /loop/b. */
  const redirector: Handler = (req, res) => {
    const url = req.url ?? '/';
    const hop = /^\/r\/(\d+)$/.exec(url);
    if (hop && Number(hop[1]) > 0) {
      const next = Number(hop[1]) - 1;
      // Alternate absolute-path and relative Location values.
      res.writeHead(next % 2 === 0 ? 301 : 307, { location: next % 2 === 0 ? `/r/${next}` : `${next}` });
      res.end('moved');
    } else if (url === '/loop/a') {
      res.writeHead(302, { location: 'b' });
      res.end();
    } else if (url === '/loop/b') {
      res.writeHead(302, { location: '/loop/a' });
      res.end();
    } else if (url === '/no-location') {
      res.writeHead(302);
      res.end('no location');
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`final ${url}`);
    }
  };

  it('follows and records every hop, resolving relative Locations', async () => {
    const server = await startServer(redirector);
    const response = await client({ allowCidrs: ['127.0.0.0/8'] }).request(`${server.origin}/r/3`);
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${server.origin}/r/3`);
    expect(response.finalUrl).toBe(`${server.origin}/r/0`);
    expect(response.redirects).toEqual([
      { url: `${server.origin}/r/3`, status: 301 },
      { url: `${server.origin}/r/2`, status: 307 },
      { url: `${server.origin}/r/1`, status: 301 },
    ]);
    expect(response.body.toString()).toBe('final /r/0');
    expect(server.requests.map((r) => r.url)).toEqual(['/r/3', '/r/2', '/r/1', '/r/0']);
  });

  it('allows exactly maxRedirects hops and fails on one more', async () => {
    const server = await startServer(redirector);
    const http = client({ allowCidrs: ['127.0.0.0/8'], maxRedirects: 2 });
    expect((await http.request(`${server.origin}/r/2`)).redirects).toHaveLength(2);
    const error = await failure(http.request(`${server.origin}/r/3`));
    expect(error.code).toBe('TOO_MANY_REDIRECTS');
    expect(error.redirects).toHaveLength(3);
    expect(server.requests.filter((r) => r.url === '/r/0')).toHaveLength(1);
  });

  it('defaults to 5 redirects', async () => {
    const server = await startServer(redirector);
    const http = client({ allowCidrs: ['127.0.0.0/8'] });
    expect((await http.request(`${server.origin}/r/5`)).redirects).toHaveLength(5);
    expect((await failure(http.request(`${server.origin}/r/6`))).code).toBe('TOO_MANY_REDIRECTS');
  });

  it('detects a redirect loop', async () => {
    const server = await startServer(redirector);
    const error = await failure(client({ allowCidrs: ['127.0.0.0/8'] }).request(`${server.origin}/loop/a`));
    expect(error.code).toBe('REDIRECT_LOOP');
    expect(error.redirects).toEqual([
      { url: `${server.origin}/loop/a`, status: 302 },
      { url: `${server.origin}/loop/b`, status: 302 },
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('returns the first response with followRedirects: false', async () => {
    const server = await startServer(redirector);
    const response = await client({ allowCidrs: ['127.0.0.0/8'] }).request(`${server.origin}/r/2`, {
      followRedirects: false,
    });
    expect(response.status).toBe(307);
    expect(response.headers.location).toBe('1');
    expect(response.redirects).toEqual([]);
    expect(response.finalUrl).toBe(`${server.origin}/r/2`);
    expect(server.requests).toHaveLength(1);
  });

  it('returns a 3xx without Location as the final response', async () => {
    const server = await startServer(redirector);
    const response = await client({ allowCidrs: ['127.0.0.0/8'] }).request(`${server.origin}/no-location`);
    expect(response.status).toBe(302);
    expect(response.body.toString()).toBe('no location');
  });

  it('drops credentials when a redirect changes origin', async () => {
    const target = await startServer(ok);
    const front = await startServer((_req, res) => {
      res.writeHead(302, { location: `http://site.test:${target.port}/` });
      res.end();
    });
    const http = client({ allowCidrs: ['127.0.0.0/8'], lookup: fakeLookup({ 'site.test': ['127.0.0.1'] }) });
    await http.request(front.origin, { headers: { authorization: 'Bearer x', 'x-keep': '1' } });
    expect(front.requests[0].headers.authorization).toBe('Bearer x');
    expect(target.requests[0].headers.authorization).toBeUndefined();
    expect(target.requests[0].headers['x-keep']).toBe('1');
  });
});

// ---- bodies ---------------------------------------------------------------------------------------

describe('content encoding and the byte cap', () => {
  const text = 'Hello, compressed world! '.repeat(400);

  function encodedServer(encoding: string, body: Buffer): Promise<TestServer> {
    return startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': encoding });
      res.end(body);
    });
  }

  it.each([
    ['gzip', zlib.gzipSync(text)],
    ['br', zlib.brotliCompressSync(text)],
    ['deflate', zlib.deflateSync(text)],
    ['deflate', zlib.deflateRawSync(text)],
    ['x-gzip', zlib.gzipSync(text)],
    ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(text))],
  ])('decodes %s', async (encoding, body) => {
    const server = await encodedServer(encoding, body);
    const response = await client({ allowCidrs: ['127.0.0.0/8'] }).request(server.origin);
    expect(response.body.toString()).toBe(text);
    expect(response.contentEncoding).toBe(encoding);
    expect(response.bytes).toBe(text.length);
    expect(response.encodedBytes).toBe(body.length);
    expect(response.decoded).toBe(true);
  });

  it('passes an unknown encoding through undecoded', async () => {
    const server = await encodedServer('compress', Buffer.from('raw-bytes'));
    const response = await client({ allowCidrs: ['127.0.0.0/8'] }).request(server.origin);
    expect(response.decoded).toBe(false);
    expect(response.body.toString()).toBe('raw-bytes');
  });

  it('handles an empty gzip-labelled body', async () => {
    const server = await encodedServer('gzip', Buffer.alloc(0));
    const response = await client({ allowCidrs: ['127.0.0.0/8'] }).request(server.origin);
    expect(response.bytes).toBe(0);
  });

  it('reports a corrupt gzip body as BAD_RESPONSE', async () => {
    const server = await encodedServer('gzip', Buffer.from('definitely not gzip'));
    const error = await failure(client({ allowCidrs: ['127.0.0.0/8'] }).request(server.origin));
    expect(error.code).toBe('BAD_RESPONSE');
  });

  it('fails with BODY_TOO_LARGE over the cap by default', async () => {
    const server = await startServer((_req, res) => res.end(Buffer.alloc(10_000, 'a')));
    const error = await failure(client({ allowCidrs: ['127.0.0.0/8'], maxBytes: 1_000 }).request(server.origin));
    expect(error.code).toBe('BODY_TOO_LARGE');
  });

  it('truncates at the cap when asked', async () => {
    const server = await startServer((_req, res) => res.end(Buffer.alloc(10_000, 'a')));
    const response = await client({ allowCidrs: ['127.0.0.0/8'], maxBytes: 1_000, onBodyLimit: 'truncate' }).request(
      server.origin,
    );
    expect(response.truncated).toBe(true);
    expect(response.bytes).toBe(1_000);
    expect(response.body.length).toBe(1_000);
  });

  it('accepts a body exactly at the cap', async () => {
    const server = await startServer((_req, res) => res.end(Buffer.alloc(1_000, 'a')));
    const response = await client({ allowCidrs: ['127.0.0.0/8'], maxBytes: 1_000 }).request(server.origin);
    expect(response.truncated).toBe(false);
    expect(response.bytes).toBe(1_000);
  });

  describe('gzip bomb (1 GiB of zeros in ~1 MiB)', () => {
    // 16 concatenated gzip members of 64 MiB of zeros each: a valid multi-member gzip stream.
    const member = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 16 }, () => member));

    it('stops at the decoded cap with BODY_TOO_LARGE', async () => {
      expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
      const server = await encodedServer('gzip', bomb);
      const error = await failure(
        client({ allowCidrs: ['127.0.0.0/8'], maxBytes: 1024 * 1024 }).request(server.origin),
      );
      expect(error.code).toBe('BODY_TOO_LARGE');
    });

    it('returns exactly maxBytes in truncate mode', async () => {
      const server = await encodedServer('gzip', bomb);
      const response = await client({ allowCidrs: ['127.0.0.0/8'], maxBytes: 1024 * 1024 }).request(server.origin, {
        onBodyLimit: 'truncate',
      });
      expect(response.truncated).toBe(true);
      expect(response.body.length).toBe(1024 * 1024);
      // Backpressure: decoding stopped long before the whole bomb was even read.
      expect(response.encodedBytes).toBeLessThan(bomb.length / 2);
    });
  });

  it('streams the body with the cap applied', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(Buffer.alloc(50_000, 'x')));
    });
    const http = client({ allowCidrs: ['127.0.0.0/8'] });
    const streamed = await http.request(server.origin, { stream: true });
    const chunks: Buffer[] = [];
    for await (const chunk of streamed.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('x'.repeat(50_000));
    expect(streamed.body.bytes).toBe(50_000);

    const capped = await http.request(server.origin, { stream: true, maxBytes: 10_000 });
    const error = await failure(
      (async () => {
        for await (const chunk of capped.body) void chunk;
      })(),
    );
    expect(error.code).toBe('BODY_TOO_LARGE');

    const truncated = await http.request(server.origin, { stream: true, maxBytes: 10_000, onBodyLimit: 'truncate' });
    let total = 0;
    for await (const chunk of truncated.body) total += (chunk as Buffer).length;
    expect(total).toBe(10_000);
    expect(truncated.body.truncated).toBe(true);
  });

  it('reads a streamed body whole with readAll(), with the same decoding, cap and errors as iterating it', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, req.url === '/plain' ? {} : { 'content-encoding': 'gzip' });
      res.end(req.url === '/plain' ? Buffer.alloc(50_000, 'p') : zlib.gzipSync(Buffer.alloc(50_000, 'x')));
    });
    const http = client({ allowCidrs: ['127.0.0.0/8'] });
    for (const [path, letter] of [
      ['/', 'x'],
      ['/plain', 'p'],
    ]) {
      const response = await http.request(`${server.origin}${path}`, { stream: true });
      expect((await response.body.readAll()).toString()).toBe(letter.repeat(50_000));
      expect(response.body.bytes).toBe(50_000);
      expect(response.body.destroyed).toBe(true);
    }

    const capped = await http.request(server.origin, { stream: true, maxBytes: 10_000 });
    expect((await failure(capped.body.readAll())).code).toBe('BODY_TOO_LARGE');

    const truncated = await http.request(`${server.origin}/plain`, {
      stream: true,
      maxBytes: 10_000,
      onBodyLimit: 'truncate',
    });
    expect((await truncated.body.readAll()).toString()).toBe('p'.repeat(10_000));
    expect(truncated.body.truncated).toBe(true);

    const iterated = await http.request(server.origin, { stream: true });
    for await (const chunk of iterated.body) {
      void chunk;
      break;
    }
    await expect(iterated.body.readAll()).rejects.toThrow();
  });

  it('reports a body cut off mid-way as an error from readAll()', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write(Buffer.alloc(1_000, 'a'));
      setTimeout(() => res.destroy(), 50);
    });
    const response = await client({ allowCidrs: ['127.0.0.0/8'] }).request(server.origin, { stream: true });
    const error = await failure(response.body.readAll());
    expect(error.code).toBe('CONNECTION_FAILED');
  });

  it('sends HEAD and returns an empty body', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '5000', 'content-encoding': 'gzip' });
      res.end(req.method === 'HEAD' ? undefined : 'x');
    });
    const response = await client({ allowCidrs: ['127.0.0.0/8'] }).request(server.origin, { method: 'HEAD' });
    expect(server.requests[0].method).toBe('HEAD');
    expect(response.status).toBe(200);
    expect(response.bytes).toBe(0);
    expect(response.headers['content-length']).toBe('5000');
  });

  it('keeps the connection after HEAD: checks of one host reuse it', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '2' });
      res.end(req.method === 'HEAD' ? undefined : 'ok');
    });
    const http = client({ allowCidrs: ['127.0.0.0/8'] });
    for (let i = 0; i < 10; i++)
      expect((await http.request(`${server.origin}/${i}`, { method: 'HEAD' })).status).toBe(200);
    expect((await http.request(`${server.origin}/get`)).status).toBe(200);
    // One connection per HEAD before (undici's default); now one, or two when undici drops the very first.
    expect(server.connections).toBeLessThanOrEqual(2);
  });

  it('a body sent after a HEAD response never becomes the next answer', async () => {
    // A broken server: it answers HEAD with its body too. The stray bytes end that connection, not the next request.
    const raw = createNetServer((socket) => {
      let buffered = '';
      socket.on('data', (chunk) => {
        buffered += chunk.toString('latin1');
        for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
          const head = buffered.slice(0, end);
          buffered = buffered.slice(end + 4);
          const body = head.startsWith('HEAD') ? 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nno' : 'right';
          socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
        }
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', () => resolve()));
    try {
      const origin = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      const http = client({ allowCidrs: ['127.0.0.0/8'] });
      expect((await http.request(`${origin}/a`, { method: 'HEAD' })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const next = await http.request(`${origin}/b`);
      expect(next.body.toString()).toBe('right');
    } finally {
      raw.close();
    }
  });
});

// ---- timeouts ---------------------------------------------------------------------------------------

describe('timeouts', () => {
  it('times out waiting for headers from a server that never answers', async () => {
    const server = await startServer(() => undefined);
    const started = Date.now();
    const error = await failure(client({ allowCidrs: ['127.0.0.0/8'], headersTimeoutMs: 200 }).request(server.origin));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/headers/);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(server.requests).toHaveLength(1);
  });

  it('times out when the body stalls', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
    });
    const error = await failure(client({ allowCidrs: ['127.0.0.0/8'], bodyTimeoutMs: 200 }).request(server.origin));
    expect(error.code).toBe('TIMEOUT');
  });

  it('enforces the overall deadline on a trickling body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const error = await failure(client({ allowCidrs: ['127.0.0.0/8'], totalTimeoutMs: 300 }).request(server.origin));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('times out a DNS lookup that never answers', async () => {
    const http = client({ lookup: () => undefined, connectTimeoutMs: 100 });
    const error = await failure(http.request('http://slow-dns.test/'));
    expect(error.code).toBe('TIMEOUT');
  });

  it('reports caller cancellation as ABORTED', async () => {
    const server = await startServer(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(
      client({ allowCidrs: ['127.0.0.0/8'] }).request(server.origin, { signal: controller.signal }),
    );
    expect(error.code).toBe('ABORTED');
  });
});

// Self-signed test-only certificate for "secure.test" (valid 2020-2100); not a secret.
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBYTCCAQegAwIBAgIBATAKBggqhkjOPQQDAjAWMRQwEgYDVQQDDAtzZWN1cmUu
dGVzdDAgFw0yMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowFjEUMBIGA1UE
AwwLc2VjdXJlLnRlc3QwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQT9FJKjTlf
LN9sReBIooBiaioEje3W7yBSsEgr2IB1Nh2e9UYlVxrOS1b81IBENhjF9tsU0x+z
H3Q/cra37J1yo0QwQjAWBgNVHREEDzANggtzZWN1cmUudGVzdDAJBgNVHRMEAjAA
MB0GA1UdDgQWBBSXPvi6E69OueO1Pxgk+E1UQ+drfzAKBggqhkjOPQQDAgNIADBF
AiEAkUoy6Qn+olMf3lcX5hoVgyCDjZFEFR2+fqYMhLphixECIB+fNl2ByYl+SvVg
osKGxgYe6cYxOo+eCgHnUyDp9SVK
-----END CERTIFICATE-----
`;
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg5ZGJ+THTQ43jVRS8
u1neIkNIvF1xDJ820k+r4QgrwAChRANCAAQT9FJKjTlfLN9sReBIooBiaioEje3W
7yBSsEgr2IB1Nh2e9UYlVxrOS1b81IBENhjF9tsU0x+zH3Q/cra37J1y
-----END PRIVATE KEY-----
`;
