import { lazyRouteComponent } from '@tanstack/react-router';

export const KeywordsPage = lazyRouteComponent(() => import('./keywords-page'), 'KeywordsPage');
export { parseKeywordSearch, type KeywordSearch } from './search-params';
