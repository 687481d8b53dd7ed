/**
 * A check is one definition (issue 62): its code is written in its definition (src/seo/checks/<category>/<family>.ts)
 * and nowhere else in src/ or facades/. Other code reads a property of the definition (`needs`, `blocker`,
 * `sitePass`...) or imports the constant the definition module exports for its code. This fails on a check code
 * written as a string literal (a value, a type, a key) or used as a property name (a record keyed by code, `.PERF_LCP`)
 * outside its definition. Comments and longer sentences that mention a code ("e.g. META_TITLE_MISSING") are fine.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG, CHECK_FAMILIES } from '../../../src/seo/checks/index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SCANNED = ['src', 'facades'];

/**
 * Where a code may be written outside its definition, and why (file -> code -> reason). Keep it short: each entry
 * says why the code cannot be read from its definition there.
 */
const ALLOWED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'facades/openapi/components.ts': Object.fromEntries(
    ['META_DESCRIPTION_MISSING', 'META_TITLE_MISSING'].map((code) => [
      code,
      'an example value of the `code` field in the OpenAPI description: documentation of the field, not a rule',
    ]),
  ),
};

const CODES: ReadonlySet<string> = new Set(CHECK_CATALOG.map((check) => check.code));
const DEFINITIONS: ReadonlySet<string> = new Set(CHECK_FAMILIES.map((family) => `src/seo/checks/${family.path}.ts`));
/** Any code as a word: most files name none, and are not parsed. */
const ANY_CODE = new RegExp(`\\b(${[...CODES].join('|')})\\b`);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

interface Finding {
  file: string;
  line: number;
  code: string;
  as: 'string literal' | 'property name';
}

/** The check codes a file writes as a string literal or a property name. */
function codeLiterals(file: string, text: string, codes: ReadonlySet<string>): Finding[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Finding[] = [];
  const add = (node: ts.Node, code: string, as: Finding['as']) =>
    found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, code, as });
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && codes.has(node.text))
      add(node, node.text, 'string literal');
    else if (
      ts.isIdentifier(node) &&
      codes.has(node.text) &&
      (ts.isPropertyAccessExpression(node.parent) ? node.parent.name === node : isPropertyName(node))
    )
      add(node, node.text, 'property name');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * A key of an object literal, of an interface or type literal, or of a class: a record keyed by code. A shorthand
 * `{ TECH_HTTP_PAGE }` is not one: it passes the imported constant along.
 */
function isPropertyName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent)) &&
    parent.name === node
  );
}

const files = SCANNED.flatMap((dir) => sourceFiles(dir)).filter((file) => !DEFINITIONS.has(file));

describe('check codes outside their definitions', () => {
  it('scans the source tree and knows every definition file', () => {
    expect(files.length).toBeGreaterThan(300);
    for (const file of DEFINITIONS) expect(readFileSync(path.join(ROOT, file), 'utf8'), file).toMatch(ANY_CODE);
  });

  it('finds a code written as a literal, a type, a key or a property, and not one in a comment or a sentence', () => {
    const text = [
      "const a = 'META_TITLE_MISSING';",
      "type B = 'PERF_LCP' | 'PERF_CLS';",
      'const c = { TECH_HTTP_PAGE: 1 };',
      'const d = thresholds.PERF_TTFB;',
      '// META_TITLE_MISSING in a comment',
      "const e = 'Stable code, e.g. META_TITLE_MISSING.';",
      'const f = { TECH_HSTS_MISSING };',
      "import { TECH_NOINDEX } from './technical/indexing.js';",
      'const g = [TECH_NOINDEX];',
    ].join('\n');
    const found = codeLiterals('example.ts', text, CODES).map(({ line, code, as }) => [line, code, as]);
    expect(found).toEqual([
      [1, 'META_TITLE_MISSING', 'string literal'],
      [2, 'PERF_LCP', 'string literal'],
      [2, 'PERF_CLS', 'string literal'],
      [3, 'TECH_HTTP_PAGE', 'property name'],
      [4, 'PERF_TTFB', 'property name'],
    ]);
  });

  it('are nowhere in src/ or facades/ but in the allow-list', () => {
    const found = files.flatMap((file) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      return ANY_CODE.test(text) ? codeLiterals(file, text, CODES) : [];
    });
    const unexpected = found.filter((finding) => ALLOWED[finding.file]?.[finding.code] === undefined);
    expect(unexpected.map(({ file, line, code, as }) => `${file}:${line} ${code} (${as})`)).toEqual([]);
    // Every allowed entry is still there, and says why.
    for (const [file, codes] of Object.entries(ALLOWED))
      for (const [code, reason] of Object.entries(codes)) {
        expect(
          found.some((finding) => finding.file === file && finding.code === code),
          `${file} ${code}`,
        ).toBe(true);
        expect(reason.length, `${file} ${code}`).toBeGreaterThan(20);
      }
  });
});
