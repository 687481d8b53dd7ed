import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniq, type TestApp } from '../support/app.js';
import { anAudit, anOrg, aProject, type Project } from '../factories.js';
import { readXlsxRows } from '../support/xlsx-reader.js';

/**
 * `seo export urls`: the URL table as shown (columns, filter, sort, one check's URLs with its evidence as columns),
 * written by the CLI from the database, the same rows the web app and the REST export give.
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const seo = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });

let t: TestApp;
let project: Project;
let auditId: string;
let dir: string;
let host: string;
const at = (path: string) => `https://${host}/${path}`;

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(join(tmpdir(), 'seo-export-'));
  host = `export-${uniq()}.example.com`;
  project = await aProject({ org: await anOrg(t, { plan: 'ENTERPRISE' }), url: `https://${host}/` });
  const page = (path: string, words: number, title: string | null) => ({
    url: at(path),
    statusCode: 200,
    kind: 'HTML' as const,
    depth: 1,
    title,
    wordCount: words,
    indexable: true,
  });
  const audit = await anAudit({
    project,
    pages: [page('a', 300, 'Alpha'), page('b', 100, null), page('c', 200, 'Gamma')],
    issues: [
      {
        code: 'LINKS_INTERNAL_BROKEN',
        occurrences: [
          {
            url: at('a'),
            evidence: {
              count: 2,
              links: [
                { url: at('gone'), status: 404 },
                { url: at('old'), status: 410 },
              ],
            },
          },
          { url: at('c'), evidence: { count: 1, links: [{ url: at('gone'), status: 404 }] } },
        ],
      },
    ],
  });
  auditId = audit.id;
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await t.close();
});

describe('seo export urls', () => {
  it('writes the view as shown: chosen columns, filter, sort (CSV to a file, a JSON summary on stdout)', async () => {
    const out = join(dir, 'pages.csv');
    const filter = JSON.stringify({
      groups: [{ conditions: [{ field: 'words', operator: 'gte', value: '200' }] }],
    });
    const { stdout } = await seo(
      'export',
      'urls',
      '--project',
      project.id,
      '--columns',
      'url,title,words',
      '--filter',
      filter,
      '--sort',
      'words:desc',
      '--out',
      out,
    );
    expect(JSON.parse(stdout)).toEqual({ file: out, format: 'csv', auditId, checkCode: null, rows: 2 });
    const lines = (await readFile(out, 'utf8'))
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(lines).toEqual(['URL,Title,Words', `${at('a')},Alpha,300`, `${at('c')},Gamma,200`]);
  }, 60_000);

  it("one check's URLs with its evidence flattened into columns, as JSON on stdout and as XLSX", async () => {
    const { stdout } = await seo(
      'export',
      'urls',
      '--project',
      project.id,
      '--audit',
      auditId,
      '--format',
      'json',
      '--check',
      'LINKS_INTERNAL_BROKEN',
      '--columns',
      'url,evidence.links.url,evidence.links.status',
      '--sort',
      'url',
    );
    const file = JSON.parse(stdout) as { checkCode: string; rows: Record<string, unknown>[] };
    expect(file.checkCode).toBe('LINKS_INTERNAL_BROKEN');
    expect(file.rows).toEqual([
      { url: at('a'), 'evidence.links.url': at('gone'), 'evidence.links.status': 404 },
      { url: at('a'), 'evidence.links.url': at('old'), 'evidence.links.status': 410 },
      { url: at('c'), 'evidence.links.url': at('gone'), 'evidence.links.status': 404 },
    ]);

    const out = join(dir, 'broken.xlsx');
    await seo(
      'export',
      'urls',
      '--project',
      project.id,
      '--format',
      'xlsx',
      '--check',
      'LINKS_INTERNAL_BROKEN',
      '--out',
      out,
    );
    const rows = readXlsxRows(await readFile(out));
    expect(rows[0]).toContain('Links: url');
    expect(rows).toHaveLength(4);
  }, 60_000);

  it('refuses a bad view with the reason and exit code 2, and leaves no file', async () => {
    const out = join(dir, 'bad.csv');
    const err = await seo('export', 'urls', '--project', project.id, '--sort', 'nope', '--out', out).catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr).toMatch(/error: sort\.field: "nope" is not a field of the URL table/);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
    const format = await seo('export', 'urls', '--project', project.id, '--format', 'pdf').catch((e) => e);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/--format must be csv, json or xlsx/);
    const missing = await seo('export', 'urls', '--project', '00000000-0000-7000-8000-000000000000').catch((e) => e);
    expect(missing.stderr).toMatch(/not found/);
  }, 60_000);
});
