import { describe, expect, it } from 'vitest';
import { CHECK_PREREQUISITES, findCheck } from '../../../src/seo/checks/index.js';

describe('CHECK_PREREQUISITES', () => {
  it('pairs catalog checks: a dependent check with the "missing" check of the element it judges, on pages', () => {
    for (const [code, needs] of Object.entries(CHECK_PREREQUISITES)) {
      expect(findCheck(code), code).toBeDefined();
      expect(findCheck(needs), needs).toBeDefined();
      expect(needs).toMatch(/_MISSING$/);
      expect(code.split('_').slice(0, 2), `${code} judges what ${needs} finds missing`).toEqual(
        needs
          .split('_')
          .slice(0, 2)
          .map((part, i) => (i === 1 && part === 'OPEN' ? 'OG' : part)),
      );
    }
  });
});
