import { lazyRouteComponent } from '@tanstack/react-router';

export { parseIssueSearch, parsePageSearch, type IssueSearch, type PageSearch } from './search-params';
export const AuditIssuesPage = lazyRouteComponent(() => import('./audit-issues-page'), 'AuditIssuesPage');
export const PagesExplorerPage = lazyRouteComponent(() => import('./pages-explorer-page'), 'PagesExplorerPage');
