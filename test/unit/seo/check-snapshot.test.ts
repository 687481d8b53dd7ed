/**
 * Every check code as the snapshot holds it (check-snapshot.ts): catalog entry, guidance, evidence kind and keys, a
 * fix without evidence, and the evidence view and fixes of every stored fixture-site occurrence. A refactor of the
 * checks leaves this file's expectations unchanged; a deliberate change of a check regenerates the snapshot.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG } from '../../../src/seo/checks/index.js';
import { asStored, describeChecks, readCheckSnapshot } from './check-snapshot.js';

const snapshot = readCheckSnapshot();
const current = asStored(describeChecks(snapshot.occurrences));

describe('the check snapshot', () => {
  it('lists the catalog codes in catalog order', () => {
    expect(CHECK_CATALOG.map((check) => check.code)).toEqual(snapshot.codes.map((entry) => entry.code));
  });

  it.each(snapshot.codes.map((entry, index) => [entry.code as string, index] as const))(
    '%s: catalog entry, guidance, evidence kind and keys, fix without evidence',
    (_code, index) => {
      expect(current.codes[index]).toEqual(snapshot.codes[index]);
    },
  );

  it('holds occurrences of every code but the site-wide ones the fixture sites cannot show', () => {
    const seen = new Set(snapshot.occurrences.map((o) => o.code));
    expect(snapshot.codes.filter((entry) => !seen.has(entry.code as string)).length).toBeLessThan(5);
  });

  it.each(snapshot.codes.map((entry) => entry.code as string))(
    '%s: the evidence view and fixes of each stored occurrence',
    (code) => {
      const indexes = snapshot.occurrences.flatMap((o, index) => (o.code === code ? [index] : []));
      expect(indexes.map((index) => current.presented[index])).toEqual(
        indexes.map((index) => snapshot.presented[index]),
      );
    },
  );
});
