import { lazyRouteComponent } from '@tanstack/react-router';
import type { Client } from '@urql/core';
import { FRESH } from '../../lib/urql';
import { KeywordsPageDocument } from '../../gql/graphql';

export const KeywordsPage = lazyRouteComponent(() => import('./keywords-page'), 'KeywordsPage');
export { parseKeywordSearch, type KeywordSearch } from './search-params';

/** Starts the keywords page's query while its code loads (route loader). */
export function prefetchKeywords(client: Client, projectId: string): void {
  void client.query(KeywordsPageDocument, { projectId }, FRESH).toPromise();
}
