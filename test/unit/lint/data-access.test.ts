import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT, lintSnippet, sourceFiles } from './support.js';

/**
 * Issue 19, point 4: a module's *.repository.ts is the only file of the module that speaks SQL or MikroORM, with one
 * idiom for raw SQL ($1 through nativeQuery / nativeTransaction). Lint enforces it (eslint.config.js); these tests
 * show the lint refuses what it must and allows the rest, and that no SQL text is left outside repositories.
 */
const dataErrors = (file: string, code: string): Promise<string[]> => lintSnippet(file, code, 'no-restricted-syntax');

describe('data access lives in repositories (lint)', () => {
  it.each([
    [
      'src/projects/project.service.ts',
      "import { nativeQuery } from '../platform/db/native-query.js';\nexport const a = nativeQuery;",
    ],
    [
      'src/keywords/rank-check.runner.ts',
      "import { nativeTransaction, type NativeDb } from '../platform/db/native-query.js';\nexport const a = " +
        'nativeTransaction;',
    ],
    [
      'src/audits/audit-job-runner.ts',
      "import { jsonParam } from '../platform/db/sql-params.js';\nexport const a = jsonParam;",
    ],
    ['src/projects/project.service.ts', "import { wrap } from '@mikro-orm/core';\nexport const a = wrap;"],
    ['src/projects/project.service.ts', 'export const a = (em: any) => em.find(Object, {});'],
    ['src/projects/project.service.ts', 'export const a = (ctx: any) => ctx.em.findOne(Object, {});'],
    [
      'src/identity/api-key.service.ts',
      "export const a = (em: any) => em.getConnection().execute('SELECT 1 WHERE id = ?', [1]);",
    ],
    ['src/cli.ts', "export const a = (pool: any) => pool.query('SELECT 1');"],
    ['workers/rank-jobs.ts', 'export const a = (orm: any) => orm.em.count(Object, {});'],
    ['schema/domain-runtime.ts', 'export const a = (tx: any) => tx.transactional(async () => 1);'],
  ])('%s: refused', async (file, code) => {
    expect((await dataErrors(file, `${code}\n`)).join('\n')).toMatch(/repository/);
  });

  it.each([
    [
      'src/projects/project.repository.ts',
      "import { nativeQuery } from '../platform/db/native-query.js';\nexport const a = (em: any) => " +
        '[nativeQuery, em.find(Object, {})];',
    ],
    [
      'src/projects/project.service.ts',
      "import type { NativeDb } from '../platform/db/native-query.js';\nexport const a = (db: NativeDb) => db;",
    ],
    [
      'src/projects/project.service.ts',
      "import { type EntityManager } from '@mikro-orm/postgresql';\nexport const a = (em: EntityManager) => em.fork();",
    ],
    [
      'src/projects/project.entity.ts',
      "import { defineEntity } from '@mikro-orm/core';\nexport const a = defineEntity;",
    ],
    ['src/platform/db/health.ts', "import { nativeQuery } from './native-query.js';\nexport const a = nativeQuery;"],
    ['src/projects/project.service.ts', 'export const a = (repo: any, em: any) => repo.find(em, 1);'],
  ])('%s: allowed', async (file, code) => {
    expect(await dataErrors(file, `${code}\n`)).toEqual([]);
  });
});

/** Every .ts file under a directory of the server (not the browser app, generated code or migrations). */
const sources = (dir: string): string[] =>
  sourceFiles(dir, ['node_modules', 'dist', 'web', 'generated', 'migrations'], /\.ts$/);

/** A string or template literal that reads as a SQL statement. */
const SQL_TEXT =
  /['"`]\s*(SELECT\s+[\w"*(]|INSERT\s+INTO\s|UPDATE\s+"?\w+"?\s+SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\s*\()/;

describe('no SQL text outside repositories and src/platform/db/', () => {
  it('finds SQL statements only in *.repository.ts and src/platform/db/', () => {
    const offenders = ['src', 'schema', 'facades', 'workers']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .filter((file) => !file.endsWith('.repository.ts') && !relative(ROOT, file).startsWith('src/platform/db/'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(ROOT, file)}:${i + 1}` }))
          .filter(({ line }) => SQL_TEXT.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('the scan recognises a statement', () => {
    expect(SQL_TEXT.test("await nativeQuery(db, 'SELECT id FROM project WHERE id = $1', [id]);")).toBe(true);
    expect(SQL_TEXT.test('`UPDATE "organization" SET plan = $1`')).toBe(true);
    expect(SQL_TEXT.test("const label = 'Select a project';")).toBe(false);
  });
});
