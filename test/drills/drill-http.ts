/**
 * What the attack drills (tenant, ssrf, bounded, secrets) share: an HTTP client for one API process that
 * waits out 429s (the drills attack isolation and SSRF, not the rate limiter), accounts made the way a user
 * makes them (better-auth sign-up, a key from GraphQL), audits run to their end, canary listeners that count
 * accepted connections, and the peak memory of a process from /proc.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import * as actors from '../support/actors.js';
import { sessionCookieOf, type Account, type CreatedApiKey, type Door } from '../support/actors.js';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
  ms: number;
}

export interface RequestInit2 {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** Give up after this long (the answer is then status 0). */
  timeoutMs?: number;
  /** Answer a 429 as it comes instead of waiting out its Retry-After (an attacker's client). */
  impatient?: boolean;
}

/** A client of one API process; every request carries the API's own Origin (a trusted origin). */
export function apiClient(baseUrl: string) {
  let waited429 = 0;
  async function request(path: string, init: RequestInit2 = {}): Promise<HttpAnswer> {
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { origin: baseUrl, ...init.headers };
      let body: string | undefined;
      if (init.body !== undefined) {
        body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      const started = performance.now();
      let res: Response;
      try {
        res = await fetch(baseUrl + path, {
          method: init.method ?? 'GET',
          headers,
          body,
          signal: AbortSignal.timeout(init.timeoutMs ?? 120_000),
          redirect: 'manual',
        });
      } catch (err) {
        return {
          status: 0,
          headers: new Headers(),
          text: String((err as Error).message),
          json: undefined,
          ms: performance.now() - started,
        };
      }
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status === 429 && attempt < 5 && !init.impatient) {
        const wait = Math.min(61, Number(res.headers.get('retry-after') ?? '5')) * 1000;
        waited429 += wait;
        await new Promise((r) => setTimeout(r, wait));
        continue;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json, ms };
    }
  }
  async function gql(
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<HttpAnswer> {
    return request('/graphql', { method: 'POST', headers, body: { query, variables } });
  }
  return { baseUrl, request, gql, waitedFor429Ms: () => waited429 };
}
export type ApiClient = ReturnType<typeof apiClient>;

export type { Account };

/** The drills' client as an actors.ts door: its requests wait out 429s too. */
export function drillDoor(api: ApiClient): Door {
  return {
    origin: api.baseUrl,
    async post(path, body, headers = {}) {
      const res = await api.request(path, { method: 'POST', headers, body });
      return { status: res.status, text: res.text, json: res.json, setCookies: res.headers.getSetCookie() };
    },
  };
}

/** Signs a user up through /api/auth (their personal organization is created on DEFAULT_PLAN). */
export function signUp(api: ApiClient, email: string, password: string, name = 'Drill User'): Promise<Account> {
  return actors.signUp(drillDoor(api), { email, password, name });
}

/** Signs in again: a second session (cookie) of the same user. */
export async function signIn(
  api: ApiClient,
  email: string,
  password: string,
): Promise<{ status: number; cookie: string | null }> {
  const res = await api.request('/api/auth/sign-in/email', { method: 'POST', body: { email, password } });
  return { status: res.status, cookie: res.status === 200 ? sessionCookieOf(res.headers.getSetCookie()) : null };
}

export function createApiKey(api: ApiClient, account: Account, name: string): Promise<CreatedApiKey> {
  return actors.createApiKey(drillDoor(api), account, name);
}

/** Throws with the answer when the status is not the one expected (set-up steps, not measurements). */
export function must(res: HttpAnswer, status: number, what: string): any {
  if (res.status !== status)
    throw new Error(`${what}: expected ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
  return res.json;
}

export const FINAL_AUDIT_STATES = ['COMPLETED', 'FAILED', 'CANCELLED'];

/** Polls the project's audit (Surface B) until it is final or the time is up; returns the last audit seen. */
export async function waitForAudit(
  api: ApiClient,
  cookie: string,
  projectId: string,
  auditId: string,
  timeoutMs: number,
): Promise<{ audit: any; ms: number }> {
  const started = performance.now();
  let audit: any = null;
  while (performance.now() - started < timeoutMs) {
    const res = await api.request(`/api/projects/${projectId}/audit?auditId=${auditId}`, { headers: { cookie } });
    audit = res.json?.audit ?? null;
    if (audit && FINAL_AUDIT_STATES.includes(audit.status)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { audit, ms: performance.now() - started };
}

export interface Canary {
  address: string;
  port: number;
  /** Connections accepted so far, with what the first bytes asked for. */
  readonly hits: { at: number; firstLine: string }[];
  close(): Promise<void>;
}

/**
 * A TCP listener that counts every accepted connection (and answers 200 "canary", so a client that got
 * through would see it). Returns null when the address cannot be bound (port taken, no IPv6).
 */
export async function startCanary(address: string, port = 0): Promise<Canary | null> {
  const hits: { at: number; firstLine: string }[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const hit = { at: Date.now(), firstLine: '' };
    hits.push(hit);
    socket.once('data', (d) => {
      hit.firstLine = String(d).split('\r\n')[0].slice(0, 200);
      socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 6\r\nconnection: close\r\n\r\ncanary');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, address, () => resolve(true));
  });
  if (!bound) return null;
  const actual = (server.address() as { port: number }).port;
  return {
    address,
    port: actual,
    hits,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Peak resident set (VmHWM) of a process, in MiB; null when /proc does not have it. */
export function peakRssMiB(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Current resident set (VmRSS) of a process, in MiB. */
export function rssMiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Resets the peak (VmHWM) to the current RSS (Linux: `5` into clear_refs); false when not permitted. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The children of a process (a `seo worker` supervisor's workers). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface KeptLogs {
  drill: string;
  /** Credentials the drill used on its platform: none may appear in its logs. */
  secrets: { what: string; value: string }[];
  logs: string;
}

/**
 * With DRILL_LOG_DIR set, a drill leaves its platform's output and the credentials it used there, so that the
 * secrets drill, run after it, searches those lines too (`DRILL_LOG_DIR=/tmp/drill-logs npm run drill -- tenant
 * ssrf bounded secrets`). The credentials are throwaway ones of a database the drill dropped.
 */
export function keepLogs(drill: string, logs: string, secrets: { what: string; value: string }[]): void {
  const dir = process.env.DRILL_LOG_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/${drill}.json`, JSON.stringify({ drill, secrets, logs } satisfies KeptLogs));
}

/** What earlier drills left in DRILL_LOG_DIR (nothing when it is unset). */
export function keptLogs(except: string): KeptLogs[] {
  const dir = process.env.DRILL_LOG_DIR;
  if (!dir || !existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== `${except}.json`)
    .map((f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as KeptLogs);
}

/** A session cookie in the forms a log could hold it: as sent, URL-decoded, and its token before the signature. */
export function sessionSecrets(cookie: string, what: string): { what: string; value: string }[] {
  const value = cookie.slice(cookie.indexOf('=') + 1);
  const decoded = decodeURIComponent(value);
  return [
    { what: `${what} cookie value`, value },
    { what: `${what} cookie value (decoded)`, value: decoded },
    { what: `${what} token`, value: decoded.split('.')[0] },
  ];
}
