import { describe, expect, it } from 'vitest';
import { parsePageViewSearch } from '../../../facades/web/src/features/audits/search-params.js';

/** The page view keeps its links' position filters (`inpos`, `outpos`) in its address: a reload or bookmark keeps them. */
describe('parsePageViewSearch', () => {
  it('reads the URL and both position filters', () => {
    expect(parsePageViewSearch({ url: 'https://a.example/x', inpos: 'CONTENT', outpos: 'FOOTER' })).toEqual({
      url: 'https://a.example/x',
      inpos: 'CONTENT',
      outpos: 'FOOTER',
    });
  });

  it('drops a position that is not one', () => {
    expect(parsePageViewSearch({ url: 'https://a.example/', inpos: 'content', outpos: ['HEADER'] })).toEqual({
      url: 'https://a.example/',
      inpos: undefined,
      outpos: undefined,
    });
    expect(parsePageViewSearch({})).toEqual({ url: '', inpos: undefined, outpos: undefined });
  });
});
