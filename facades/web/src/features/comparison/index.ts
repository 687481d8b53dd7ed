import { lazyRouteComponent } from '@tanstack/react-router';

export { parseComparisonSearch, type ComparisonSearch, type ComparisonTab } from './search-params';
export const ComparisonPage = lazyRouteComponent(() => import('./comparison-page'), 'ComparisonPage');
