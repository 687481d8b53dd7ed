/**
 * What the wait for external link checks says while it lasts (issue 51, part 4): targets settled of those found, so
 * a user waiting minutes on one slow host sees the checks advance (CLI: "external links checked N of M").
 */
import { describe, expect, it } from 'vitest';
import { ExternalLinks } from '../../../src/crawler/external-links.js';
import type { ResourceCheck, ResourceChecker } from '../../../src/crawler/resource-checker.js';

describe('external link progress', () => {
  it('counts the targets answered or from the cache, of every target met (not tried ones too)', async () => {
    const answers = new Map<string, (r: ResourceCheck) => void>();
    const checker = {
      check: (url: string) => new Promise<ResourceCheck>((resolve) => answers.set(url, resolve)),
    } as unknown as ResourceChecker;
    const cached = new Map([['https://c.test/', { status: 200, redirected: false }]]);
    const links = new ExternalLinks(checker, {
      cap: 2,
      cache: { recent: async () => cached, store: async () => undefined },
    });
    await links.begin();
    for (const url of ['https://a.test/1', 'https://a.test/2', 'https://a.test/3', 'https://c.test/']) links.add(url);
    // a.test/3 is over the cap (not tried); c.test comes from the cache.
    expect(links.progress()).toEqual({ checked: 1, found: 4 });
    answers.get('https://a.test/1')!({ status: 200, redirected: false });
    await Promise.resolve();
    await Promise.resolve();
    expect(links.progress()).toEqual({ checked: 2, found: 4 });
    answers.get('https://a.test/2')!({ status: 404, redirected: false });
    const tally = await links.checkAll(new Map(), () => false);
    expect(links.progress()).toEqual({ checked: 3, found: 4 });
    expect(tally.targets.size).toBe(4);
  });
});
