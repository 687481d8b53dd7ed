/**
 * docs/scores.md is the home of the severity rule and the catalog's classification. Its catalog table is generated from
 * the check definitions (`npm run docs:checks`): every row but its reason (the definition's `scoreReason`) is read
 * from the definition, so the document cannot drift from the catalog.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  SCORES_TABLE_END,
  SCORES_TABLE_START,
  scoresCatalogTable,
  withScoresCatalogTable,
} from '../../../src/checks-catalog/check-docs.js';
import { CHECK_CATALOG, CHECK_DEFINITIONS, chargedScope, type CheckSpec } from '../../../src/seo/checks/index.js';

const doc = readFileSync(new URL('../../../docs/scores.md', import.meta.url), 'utf8');
const rows = new Map(
  doc
    .slice(doc.indexOf('## Catalog'))
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [code, severity, scope, category] = line.split(' | ').map((cell) => cell.replace(/^\| /, '').trim());
      return [code.replaceAll('`', ''), { severity, scope, category }] as const;
    }),
);
const specs = CHECK_DEFINITIONS as readonly CheckSpec[];

describe('docs/scores.md', () => {
  it('holds the catalog table the definitions generate, between its markers (npm run docs:checks)', () => {
    expect(doc.indexOf(SCORES_TABLE_START)).toBeGreaterThan(doc.indexOf('## Catalog'));
    expect(doc.indexOf(SCORES_TABLE_END)).toBeGreaterThan(doc.indexOf(SCORES_TABLE_START));
    expect(withScoresCatalogTable(doc)).toBe(doc);
  });

  it('lists every catalog code once, and nothing else', () => {
    expect([...rows.keys()].sort()).toEqual(CHECK_CATALOG.map((c) => c.code).sort());
  });

  it.each(CHECK_CATALOG.map((c) => [c.code, c] as const))(
    'gives %s its catalog severity, scope and category',
    (_, c) => {
      const row = rows.get(c.code)!;
      expect(row.category).toBe(c.category);
      expect(row.scope).toBe(c.siteFact ? 'site (fact)' : chargedScope(c));
      // Banded checks say their bands; others start with the catalog severity.
      expect(row.severity.startsWith(c.banded ? 'NOTICE / WARNING (band)' : c.severity)).toBe(true);
      expect(row.severity.endsWith('· blocker')).toBe(c.blocker === true);
    },
  );

  it('justifies every CRITICAL code', () => {
    for (const c of CHECK_CATALOG.filter((check) => check.severity === 'CRITICAL')) {
      const line = doc.split('\n').find((l) => l.startsWith(`| \`${c.code}\` |`))!;
      expect(line.split(' | ').at(-1)!.replace(/ \|$/, ''), c.code).not.toBe('—');
    }
  });

  it('is not generated for a definition without a reason, nor for a CRITICAL one that does not say why', () => {
    const [first, ...rest] = specs;
    expect(() => scoresCatalogTable([{ ...first, scoreReason: undefined }, ...rest])).toThrow(first.code);
    const critical = specs.find((spec) => spec.severity === 'CRITICAL')!;
    const withoutWhy = specs.map((spec) => (spec === critical ? { ...spec, scoreReason: {} } : spec));
    expect(() => scoresCatalogTable(withoutWhy)).toThrow(critical.code);
    expect(() => withScoresCatalogTable('# Scores\n\nno table\n')).toThrow(/markers/);
  });

  it('keeps a cell in its column: a | in a reason is escaped', () => {
    const [first, ...rest] = specs;
    const table = scoresCatalogTable([{ ...first, scoreReason: { ours: 'a | b' } }, ...rest]);
    expect(table.split('\n')[2].endsWith('| a \\| b |')).toBe(true);
  });
});
