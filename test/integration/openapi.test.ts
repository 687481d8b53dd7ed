import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATHS, SURFACE_BASE, toOpenApiPath, type DocumentSurface } from '../../facades/openapi/document.js';
import { createTestApp, type TestApp } from '../support/app.js';

/**
 * The two OpenAPI documents, as @fastify/swagger generates them from the registered routes: each REST route the
 * server registered is documented with the status codes its schema declares (plus 408 and 503), nothing else is,
 * and both documents pass Redocly's lint (redocly.yaml) with no error and no warning that file does not accept.
 */

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
let t: TestApp;
const docs = {} as Record<DocumentSurface, any>;

beforeAll(async () => {
  t = await createTestApp();
  for (const surface of ['A', 'B'] as const) {
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATHS[surface] });
    expect(res.statusCode).toBe(200);
    docs[surface] = res.json();
  }
}, 60_000);

afterAll(async () => {
  await t.close();
});

/** The REST surfaces' routes: under /api, except better-auth's and the documents themselves. */
const isRestRoute = (url: string) =>
  url.startsWith('/api/') && !url.startsWith('/api/auth/') && !(Object.values(OPENAPI_PATHS) as string[]).includes(url);

const surfaceOf = (url: string): DocumentSurface => (url.startsWith(`${SURFACE_BASE.A}/`) ? 'A' : 'B');

describe('the generated documents and the registered routes', () => {
  it('every registered REST route is documented with the status codes of its schema, and nothing else is', () => {
    const registered = new Map<string, string[]>();
    for (const route of t.app.registeredRoutes) {
      for (const method of ([] as string[]).concat(route.method)) {
        if (method === 'HEAD' || !isRestRoute(route.url)) continue;
        const surface = surfaceOf(route.url);
        const path = toOpenApiPath(route.url.slice(SURFACE_BASE[surface].length));
        registered.set(`${surface} ${method} ${path}`, [...new Set([...route.responses, '408', '503'])].sort());
      }
    }
    const documented = new Map<string, string[]>();
    for (const surface of ['A', 'B'] as const) {
      for (const [path, operations] of Object.entries<Record<string, any>>(docs[surface].paths)) {
        for (const [method, operation] of Object.entries<any>(operations)) {
          documented.set(`${surface} ${method.toUpperCase()} ${path}`, Object.keys(operation.responses).sort());
        }
      }
    }
    // 11 routes of Surface A; 19 of Surface B, 4 free tools and 2 of the public check catalog.
    expect(registered.size).toBe(36);
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(registered));
  });

  it('operation ids are unique and every path parameter is documented as required', () => {
    for (const surface of ['A', 'B'] as const) {
      const ids: string[] = [];
      for (const [path, operations] of Object.entries<Record<string, any>>(docs[surface].paths)) {
        for (const operation of Object.values<any>(operations)) {
          ids.push(operation.operationId);
          for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
            expect(operation.parameters, `${surface} ${path} ${name}`).toContainEqual(
              expect.objectContaining({ name, in: 'path', required: true }),
            );
          }
        }
      }
      expect(new Set(ids).size, surface).toBe(ids.length);
    }
  });
});

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

describe("Redocly's lint", () => {
  it('passes both documents with no error; the only warnings are the ones redocly.yaml accepts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
    try {
      for (const surface of ['A', 'B'] as const) {
        const file = join(dir, `surface-${surface}.json`);
        await writeFile(file, JSON.stringify(docs[surface]));
        const bin = join(root, 'node_modules/.bin/redocly');
        const args = ['lint', file, '--config', join(root, 'redocly.yaml'), '--format=json'];
        // redocly exits 1 on errors; the report is on stdout either way.
        const { stdout } = await run(bin, args, {
          cwd: root,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          maxBuffer: 16 * 1024 * 1024,
        }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
        const report = JSON.parse(stdout) as LintReport;
        expect(
          report.problems.filter((p) => p.severity === 'error'),
          surface,
        ).toEqual([]);
        expect(report.totals.errors, surface).toBe(0);
        // Accepted in redocly.yaml: the shared response-header components a document does not use.
        const unaccepted = report.problems.filter(
          (p) =>
            !(
              p.ruleId === 'no-unused-components' &&
              /^Component: "(Allow|Content-Disposition)" is never used\.$/.test(p.message)
            ),
        );
        expect(unaccepted, surface).toEqual([]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
