import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestCertificate } from '../fixtures/sites/test-certificate.js';

/**
 * The outside world of a bench, kept on this machine. A bench sends nothing to another address, not even a DNS
 * query, yet a real site links to other hosts and the audit checks those links. So every external host the site
 * names is pinned (SAFE_HTTP_RESOLVE) to 127.0.0.2, where one server answers for all of them: http on port 80 and
 * https on 443 (a throw-away certificate for those names, which the worker trusts through NODE_EXTRA_CA_CERTS).
 * Each host answers after a latency of its own, drawn once from its name between MIN_MS and MAX_MS: what DNS, the
 * connection, TLS and a distant server's first byte take together. Every answer is a small 200 page.
 *
 * Without this, the worker asked the machine's resolver, which no packet reaches here: each lookup failed after up to
 * 5 s, a wait no real network has (and traffic a bench must not send).
 */

const ADDRESS = '127.0.0.2';
export const OUTSIDE_MIN_MS = 100;
export const OUTSIDE_MAX_MS = 900;

/** Host names of absolute http(s) URLs in a folder's HTML files and subfolders (href and src), other than `own`. */
export function externalHosts(root: string, own: readonly string[] = []): string[] {
  const hosts = new Set<string>();
  const url = /\b(?:href|src)\s*=\s*["']?https?:\/\/(?:[^/@"'\s]*@)?([a-z0-9.-]+)/gi;
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!/\.html?$/i.test(name)) continue;
    for (const m of readFileSync(join(root, name), 'latin1').matchAll(url)) hosts.add(m[1].toLowerCase());
  }
  for (const host of own) hosts.delete(host.toLowerCase());
  return [...hosts].sort();
}

/** The latency of a host: a fixed draw from its name, so that both rounds and both runs of a bench see the same. */
export function outsideLatencyMs(host: string): number {
  const draw = createHash('sha256').update(host).digest().readUInt32BE(0) / 2 ** 32;
  return Math.round(OUTSIDE_MIN_MS + draw * (OUTSIDE_MAX_MS - OUTSIDE_MIN_MS));
}

export interface OutsideWeb {
  hosts: string[];
  /** Merge into the worker's environment (SAFE_HTTP_ALLOW and SAFE_HTTP_RESOLVE extend the bench's own). */
  env(base: { SAFE_HTTP_ALLOW: string; SAFE_HTTP_RESOLVE: string }): Record<string, string>;
  /** Requests answered and connections opened since the last call (a round's). */
  take(): { requests: number; connections: number };
  /** Why the servers could not listen (every external link then fails at once: connection refused), or null. */
  warning: string | null;
  close(): Promise<void>;
}

export async function startOutsideWeb(hosts: string[]): Promise<OutsideWeb> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-outside-'));
  const caFile = join(dir, 'outside-ca.pem');
  let answered = 0;
  let connections = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
    const timer = setTimeout(() => {
      answered++;
      const body = `<!doctype html><html><head><title>${host}</title></head><body>elsewhere</body></html>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
    }, outsideLatencyMs(host));
    res.once('close', () => clearTimeout(timer));
  };
  const servers: Server[] = [];
  let warning: string | null = null;
  try {
    const certificate = createTestCertificate(hosts);
    writeFileSync(caFile, certificate.cert);
    servers.push(createHttpServer(handler), createHttpsServer(certificate, handler));
    servers[0].on('connection', () => connections++);
    servers[1].on('secureConnection', () => connections++);
    await Promise.all(
      servers.map(
        (server, i) =>
          new Promise<void>((resolve, reject) => {
            server.once('error', reject);
            server.listen(i === 0 ? 80 : 443, ADDRESS, () => resolve());
          }),
      ),
    );
  } catch (err) {
    const reason = (err as Error).message;
    warning = `the outside web could not listen on ${ADDRESS}:80/443 (${reason}): every external link fails at once`;
  }
  const close = async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    hosts,
    warning,
    env: (base) => ({
      SAFE_HTTP_ALLOW: `${base.SAFE_HTTP_ALLOW},${ADDRESS}/32`,
      SAFE_HTTP_RESOLVE: [base.SAFE_HTTP_RESOLVE, ...hosts.map((host) => `${host}=${ADDRESS}`)].join(','),
      ...(warning ? {} : { NODE_EXTRA_CA_CERTS: caFile }),
    }),
    take: () => {
      const n = { requests: answered, connections };
      answered = 0;
      connections = 0;
      return n;
    },
    close,
  };
}
