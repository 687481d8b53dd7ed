import { lazyRouteComponent } from '@tanstack/react-router';
import type { Client } from '@urql/core';
import { FRESH } from '../../lib/urql';
import { ViewerDocument } from '../../gql/graphql';
import { USAGE_CONTEXT } from './usage-context';

/**
 * The signed-in header (organization switcher, plan and usage, user menu): loaded only for signed-in users. Loaded
 * with `AppHeader.preload()` before the server renders a signed-in page, so the page's HTML has it.
 */
export const AppHeader = lazyRouteComponent(() => import('./app-header'), 'AppHeader');

/** Starts the header's query (route loader): it runs while the page's code loads. */
export function prefetchHeader(client: Client): void {
  void client.query(ViewerDocument, {}, { ...FRESH, ...USAGE_CONTEXT }).toPromise();
}
