/**
 * docs/scores.md is the home of the severity rule and the catalog's classification: its catalog table must name every
 * code of the catalog once, with the catalog's severity, charged scope and category, so the document cannot drift.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG, chargedScope } from '../../../src/seo/checks/index.js';

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

describe('docs/scores.md', () => {
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
    },
  );

  it('justifies every CRITICAL code', () => {
    for (const c of CHECK_CATALOG.filter((check) => check.severity === 'CRITICAL')) {
      const line = doc.split('\n').find((l) => l.startsWith(`| \`${c.code}\` |`))!;
      expect(line.split(' | ').at(-1)!.replace(/ \|$/, ''), c.code).not.toBe('—');
    }
  });
});
