import { describe, expect, it } from 'vitest';
import { linksNotReadNote, pageLinksNote, withNotTried, type AuditCounts } from '../../../src/audits/index.js';

const counts = (links?: AuditCounts['links']): AuditCounts => ({
  urlsCrawled: 3,
  htmlPages: 3,
  indexablePages: 3,
  externalLinks: { found: 0, checked: 0, couldNotCheck: 0 },
  resources: { found: 0, checked: 0 },
  labPages: { measured: 0, eligible: 3 },
  ...(links ? { links } : {}),
});

describe('links not read past the per-page cap', () => {
  it('are found - read, and null for an audit counted before links were', () => {
    expect(withNotTried(counts({ found: 12_345, read: 10_000, pagesOverCap: 2 })).links).toEqual({
      found: 12_345,
      read: 10_000,
      notRead: 2_345,
      pagesOverCap: 2,
    });
    expect(withNotTried(counts()).links).toBeNull();
  });

  it("are said for the audit only when there are any, in every surface's words", () => {
    const note = (found: number, read: number, pagesOverCap: number) =>
      linksNotReadNote(withNotTried(counts({ found, read, pagesOverCap })).links);
    expect(note(12_000, 10_000, 1)).toBe('2,000 links past the per-page cap on 1 page were not checked');
    expect(note(200_001, 200_000, 2)).toBe('1 link past the per-page cap on 2 pages was not checked');
    expect(note(19, 19, 0)).toBeNull();
    expect(linksNotReadNote(null)).toBeNull();
  });

  it("are said on the page beside its links: 'N links; M past the K read were not checked'", () => {
    expect(pageLinksNote(12_000, 2_000)).toBe('12,000 links; 2,000 past the 10,000 read were not checked');
    expect(pageLinksNote(100_001, 1)).toBe('100,001 links; 1 past the 100,000 read was not checked');
    expect(pageLinksNote(9, 0)).toBe('9 links');
    expect(pageLinksNote(1, 0)).toBe('1 link');
  });
});
