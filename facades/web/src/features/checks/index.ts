import { lazyRouteComponent } from '@tanstack/react-router';
import type { Client } from '@urql/core';
import { CheckCatalogDocument, CheckDocDocument, ProjectChecksDocument } from '../../gql/graphql';
import { FRESH } from '../../lib/urql';
import { CATALOG_HEAD, checkDocHead, type PageHead } from './page-head';

export const CheckCatalogPage = lazyRouteComponent(() => import('./check-catalog-page'), 'CheckCatalogPage');
export const CheckDocPage = lazyRouteComponent(() => import('./check-doc-page'), 'CheckDocPage');
export const ProjectChecksPage = lazyRouteComponent(() => import('./project-checks-page'), 'ProjectChecksPage');
export { parseCatalogSearch, type CatalogSearch } from './catalog-search';

/**
 * The catalog pages' data, awaited by their route loaders: the server renders them with it (public pages, content
 * without JavaScript) and the browser's first render has it too.
 */
export async function loadCheckCatalog(client: Client): Promise<{ head: PageHead }> {
  await client.query(CheckCatalogDocument, {}).toPromise();
  return { head: CATALOG_HEAD };
}

export async function loadCheckDoc(client: Client, code: string): Promise<{ head: PageHead | null }> {
  const result = await client.query(CheckDocDocument, { code }).toPromise();
  const check = result.data?.check;
  return { head: check ? checkDocHead(check) : null };
}

/** Starts the project checks page's query while its code loads (route loader). */
export function prefetchProjectChecks(client: Client, projectId: string): void {
  void client.query(ProjectChecksDocument, { id: projectId }, FRESH).toPromise();
}
export { AboutCheckLink, ProjectChecksLink } from './about-check-link';
