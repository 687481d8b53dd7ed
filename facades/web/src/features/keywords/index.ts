import { lazyRouteComponent } from '@tanstack/react-router';
import type { Client } from '@urql/core';
import { FRESH } from '../../lib/urql';
import { STREAMED } from '../../lib/streamed-query';
import { KeywordListDocument, KeywordsPageDocument } from '../../gql/graphql';

export const KeywordsPage = lazyRouteComponent(() => import('./keywords-page'), 'KeywordsPage');
export { parseKeywordSearch, type KeywordSearch } from './search-params';

/** Starts the keywords page's queries while its code loads (route loader); the server streams the list after. */
export function prefetchKeywords(client: Client, projectId: string): void {
  void client.query(KeywordsPageDocument, { projectId }, FRESH).toPromise();
  void client.query(KeywordListDocument, { projectId }, { ...FRESH, ...STREAMED }).toPromise();
}
