/**
 * Every check code as the snapshot holds it (check-snapshot.ts), keyed by code: catalog entry, guidance, evidence kind
 * and keys, a fix without evidence, and the evidence view and fixes of every stored fixture-site occurrence. A
 * refactor of the checks leaves this file's expectations unchanged; a deliberate change of a check regenerates the
 * snapshot, and changes only the entries of the codes it concerns.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG } from '../../../src/seo/checks/index.js';
import {
  CHECK_SNAPSHOT_PATH,
  asStored,
  buildCheckSnapshot,
  readCheckSnapshot,
  snapshotOccurrences,
  snapshotText,
} from './check-snapshot.js';

const snapshot = readCheckSnapshot();
const occurrences = snapshotOccurrences(snapshot);
const current = asStored(buildCheckSnapshot(occurrences));
const codes = Object.keys(snapshot);

describe('the check snapshot', () => {
  it('holds the catalog codes, each once', () => {
    expect([...codes].sort()).toEqual(CHECK_CATALOG.map((check) => check.code).sort());
  });

  it.each(codes)('%s: catalog entry, guidance, evidence kind and keys, fix without evidence', (code) => {
    expect(current[code]?.check).toEqual(snapshot[code].check);
  });

  it('holds occurrences of every code but the site-wide ones the fixture sites cannot show', () => {
    expect(codes.filter((code) => snapshot[code].occurrences.length === 0).length).toBeLessThan(5);
  });

  it.each(codes)('%s: the evidence view and fixes of each stored occurrence', (code) => {
    expect(current[code]?.occurrences).toEqual(snapshot[code].occurrences);
  });

  it('does not depend on the order of the catalog: the file is the same for any order of the codes', () => {
    const text = snapshotText(buildCheckSnapshot(occurrences));
    expect(readFileSync(CHECK_SNAPSHOT_PATH, 'utf8')).toBe(snapshotText(snapshot));
    expect(snapshotText(buildCheckSnapshot(occurrences, [...CHECK_CATALOG].reverse()))).toBe(text);
    // A code moved from the end of the catalog to its start, as a new check put in its family would be.
    const moved = [CHECK_CATALOG.at(-1)!, ...CHECK_CATALOG.slice(0, -1)];
    expect(snapshotText(buildCheckSnapshot(occurrences, moved))).toBe(text);
  });

  it('changes only the entry of a code added or removed', () => {
    const without = buildCheckSnapshot(occurrences, CHECK_CATALOG.slice(1));
    const removed = CHECK_CATALOG[0].code;
    expect(Object.keys(without)).toEqual(codes.filter((code) => code !== removed));
    for (const code of Object.keys(without)) expect(asStored(without[code])).toEqual(current[code]);
  });
});
