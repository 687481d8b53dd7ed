import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, lintSnippet, sourceFiles } from './support.js';

/**
 * Issue 49, point 3: no hand-written function over 150 lines (blank lines and comments not counted) in src/, schema/,
 * facades/ or workers/; a data table is exempted only file-wide, with its reason (eslint.config.js). These tests show
 * the rule bites on a planted function and lets the rest through.
 */
const lengthErrors = (file: string, code: string): Promise<string[]> =>
  lintSnippet(file, code, 'max-lines-per-function');
const exemptionErrors = (file: string, code: string): Promise<string[]> =>
  lintSnippet(file, code, 'function-length/length-exemption');

/** A function whose body has `statements` lines of code, plus `blanks` blank and `comments` comment lines. */
function plantedFunction(statements: number, { blanks = 0, comments = 0 } = {}): string {
  const body = Array.from({ length: statements }, (_, i) => `  total += ${i};`);
  for (let i = 0; i < blanks; i++) body.splice(2 * i + 1, 0, '');
  for (let i = 0; i < comments; i++) body.splice(3 * i + 1, 0, `  // step ${i}`);
  // The declaration line, `let total = 0;`, the return and the closing brace are 4 more lines.
  return ['export function planted(): number {', '  let total = 0;', ...body, '  return total;', '}', ''].join('\n');
}

/** A React component of `lines` lines (the function's own lines included). */
function plantedComponent(lines: number): string {
  const items = Array.from({ length: lines - 6 }, (_, i) => `      <li key="${i}">item ${i}</li>`);
  return ['export function Planted() {', '  return (', '    <ul>', ...items, '    </ul>', '  );', '}', ''].join('\n');
}

describe('functions stay under 150 lines (lint)', () => {
  it('refuses a planted 160-line function in src/', async () => {
    const errors = await lengthErrors('src/audits/planted.ts', plantedFunction(156));
    expect(errors).toEqual(["Function 'planted' has too many lines (160). Maximum allowed is 150."]);
  });

  it('allows a 100-line function', async () => {
    expect(await lengthErrors('src/audits/planted.ts', plantedFunction(96))).toEqual([]);
  });

  it('allows exactly 150 lines and refuses 151', async () => {
    expect(await lengthErrors('workers/planted.ts', plantedFunction(146))).toEqual([]);
    expect(await lengthErrors('workers/planted.ts', plantedFunction(147))).toHaveLength(1);
  });

  it('counts neither blank lines nor comments', async () => {
    const code = plantedFunction(140, { blanks: 30, comments: 30 });
    expect(code.split('\n').length).toBeGreaterThan(200);
    expect(await lengthErrors('schema/planted.ts', code)).toEqual([]);
  });

  it('refuses a long React component in facades/web', async () => {
    const errors = await lengthErrors('facades/web/src/features/planted/planted-page.tsx', plantedComponent(160));
    expect(errors).toEqual(["Function 'Planted' has too many lines (160). Maximum allowed is 150."]);
  });

  it('counts a nested function in the function that holds it', async () => {
    const inner = plantedFunction(100).replace('export function planted', 'function inner');
    const code = `export function outer(): () => number {\n${inner}${'  void 0;\n'.repeat(60)}  return inner;\n}\n`;
    expect(await lengthErrors('src/crawler/planted.ts', code)).toEqual([
      "Function 'outer' has too many lines (167). Maximum allowed is 150.",
    ]);
  });

  it('lets a data table of any length through: it is not a function', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => `  { code: 'CODE_${i}', weight: ${i} },`);
    const code = ['export const TABLE = [', ...rows, '];', ''].join('\n');
    expect(await lengthErrors('src/seo/planted-table.ts', code)).toEqual([]);
  });

  it('leaves tests alone', async () => {
    expect(await lengthErrors('test/unit/planted.test.ts', plantedFunction(200))).toEqual([]);
  });
});

describe('a long function is exempted only as a data table, file-wide (lint)', () => {
  const exempted = (comment: string): string => `${comment}\n${plantedFunction(200)}`;

  it('accepts a file-level disable whose reason names a data table', async () => {
    const code = exempted('/* eslint-disable max-lines-per-function -- data table: generated from the catalog */');
    expect(await lengthErrors('src/seo/planted.ts', code)).toEqual([]);
    expect(await exemptionErrors('src/seo/planted.ts', code)).toEqual([]);
  });

  it.each([
    ['without a reason', '/* eslint-disable max-lines-per-function */'],
    ['with another reason', '/* eslint-disable max-lines-per-function -- too long to split today */'],
    ['as a line comment', '// eslint-disable-next-line max-lines-per-function -- data table: rows'],
    ['for one line', '/* eslint-disable-next-line max-lines-per-function -- data table: rows */'],
    ['beside other rules', '/* eslint-disable max-len, max-lines-per-function -- because */'],
  ])('refuses a disable %s', async (_, comment) => {
    expect(await exemptionErrors('src/seo/planted.ts', exempted(comment))).toHaveLength(1);
  });

  it('lists the exempted files of the repository (none today)', () => {
    const exemptedFiles = ['src', 'schema', 'facades', 'workers']
      .flatMap((dir) => sourceFiles(join(ROOT, dir), ['node_modules', 'dist', 'generated', 'gql'], /\.tsx?$/))
      .filter((file) => /eslint-disable[^\n]*max-lines-per-function/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(exemptedFiles).toEqual([]);
  });
});
