/**
 * Preloaded into a bench's audit worker (`node --import <this, transpiled>`; see worker-probe-report.ts
 * probeImport) to see where an audit's time goes without touching the worker's code: every HTTP request undici
 * makes (its diagnostics channels), every DNS lookup (node:dns lookup, wrapped before the worker loads), every
 * PostgreSQL statement (pg's Client.prototype.query) with the audit's phase changes among them, and the process
 * CPU every 50 ms. Written as JSON to BENCH_PROBE_FILE when the process exits. Times are performance.now() ms.
 *
 * It keeps one small tuple per event: meant for sites of a few thousand pages (the real-site bench), not for
 * memory measurements.
 */
import { subscribe } from 'node:diagnostics_channel';
import dns from 'node:dns';
import { writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  classifyStatement,
  type ProbeData,
  type ProbeLookup,
  type ProbeQuery,
  type ProbeRequest,
} from './worker-probe-report.js';

const file = process.env.BENCH_PROBE_FILE;
const now = () => performance.now();
const data: ProbeData = {
  timeOrigin: performance.timeOrigin,
  loadedAt: now(),
  requests: [],
  lookups: [],
  queries: [],
  marks: [],
  cpu: [],
};

// ---- HTTP: undici's diagnostics channels (the platform's safe-http client is undici) ----
interface UndiciRequest {
  origin?: string | URL;
  method?: string;
  path?: string;
}
const open = new WeakMap<object, ProbeRequest>();
const errorCode = (err: unknown): string =>
  (err as { code?: string } | null)?.code ?? (err as Error | null)?.name ?? 'Error';

subscribe('undici:request:create', (message) => {
  const { request } = message as { request: UndiciRequest };
  const row: ProbeRequest = [
    String(request.origin ?? ''),
    request.method ?? '',
    request.path ?? '',
    now(),
    -1,
    -1,
    -1,
    null,
  ];
  open.set(request, row);
  data.requests.push(row);
});
subscribe('undici:request:headers', (message) => {
  const { request, response } = message as { request: object; response: { statusCode: number } };
  const row = open.get(request);
  if (!row) return;
  row[4] = now();
  row[6] = response.statusCode;
});
subscribe('undici:request:trailers', (message) => {
  const row = open.get((message as { request: object }).request);
  if (row) row[5] = now();
});
subscribe('undici:request:error', (message) => {
  const { request, error } = message as { request: object; error: unknown };
  const row = open.get(request);
  if (!row) return;
  row[5] = now();
  row[7] = errorCode(error);
});

// ---- DNS: node:dns lookup, wrapped before the worker's modules bind it ----
type LookupCallback = (err: NodeJS.ErrnoException | null, ...rest: unknown[]) => void;
const originalLookup = dns.lookup as unknown as (host: string, ...args: unknown[]) => void;
const timedLookup = function (this: unknown, host: string, ...args: unknown[]) {
  const at = args.findIndex((a) => typeof a === 'function');
  if (at < 0) return originalLookup.call(this, host, ...args);
  const callback = args[at] as LookupCallback;
  const row: ProbeLookup = [host, now(), -1, null];
  data.lookups.push(row);
  args[at] = (err: NodeJS.ErrnoException | null, ...rest: unknown[]) => {
    row[2] = now();
    if (err) row[3] = errorCode(err);
    callback(err, ...rest);
  };
  return originalLookup.call(this, host, ...args);
};
(dns as unknown as { lookup: unknown }).lookup = timedLookup;
syncBuiltinESMExports();

// ---- PostgreSQL: every statement timed; the audit's phase changes are marks ----
interface PgClientPrototype {
  query(this: unknown, ...args: unknown[]): unknown;
}
try {
  const pg = createRequire(join(process.cwd(), 'package.json'))('pg') as { Client: { prototype: PgClientPrototype } };
  const proto = pg.Client.prototype;
  const originalQuery = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; values?: unknown[] } | null;
    const text = typeof config === 'string' ? config : (config?.text ?? '');
    const values = (typeof config === 'object' && config?.values) || (Array.isArray(args[1]) ? args[1] : []);
    const { kind, mark } = classifyStatement(text, values);
    const row: ProbeQuery = [kind, now(), -1];
    const done = () => {
      row[2] = now();
      if (mark) data.marks.push([mark, row[2]]);
    };
    data.queries.push(row);
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (...a: unknown[]) => void;
      args[last] = (...a: unknown[]) => {
        done();
        callback(...a);
      };
      return originalQuery.apply(this, args);
    }
    const result = originalQuery.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function')
      (result as Promise<unknown>).then(done, done);
    return result;
  };
} catch {
  // No pg in this process: no statements recorded.
}

// ---- CPU, sampled ----
const cpu0 = process.cpuUsage();
const sampleCpu = () => {
  const used = process.cpuUsage(cpu0);
  data.cpu.push([now(), (used.user + used.system) / 1000]);
};
sampleCpu();
setInterval(sampleCpu, 50).unref();

if (file)
  process.on('exit', () => {
    sampleCpu();
    writeFileSync(file, JSON.stringify(data));
  });
