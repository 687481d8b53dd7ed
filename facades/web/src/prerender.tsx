/**
 * Build-time rendering of the public pages (the landing page and the free tools) to HTML, so that their content is
 * in the page a crawler or a browser without JavaScript receives. Run in Node by the build (../prerender.ts) after
 * `vite build`; in the browser, main.tsx renders the app over it once the router has the page ready.
 *
 * The tree is the app's own layout and pages for a visitor without a session, under a router holding only these
 * routes (the app's router reads the session and the browser's location when it is created).
 */
import { renderToString } from 'react-dom/server';
import {
  RouterProvider,
  createMemoryHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  type AnyRoute,
} from '@tanstack/react-router';
import type { Session } from './lib/session';
import { GraphQLProvider } from './lib/graphql-client';
import { RootLayout } from './app/root-layout';
import { NotFoundPage } from './app/route-states';
import { LandingPage } from './features/landing';
import { PUBLIC_PAGES, type PublicPage, type PublicPath } from './features/landing';
import { HeadersToolPage, MetaTagsToolPage, RobotsToolPage, SitemapToolPage, ToolsIndexPage } from './features/tools';

export { PUBLIC_PAGES, type PublicPage };

const COMPONENTS: Record<PublicPath, typeof LandingPage> = {
  '/': LandingPage,
  '/tools': ToolsIndexPage,
  '/tools/meta-tags': MetaTagsToolPage,
  '/tools/robots': RobotsToolPage,
  '/tools/headers': HeadersToolPage,
  '/tools/sitemap': SitemapToolPage,
};

function publicRouter(path: PublicPath) {
  const root = createRootRouteWithContext<object>()({
    beforeLoad: (): { session: Session | null } => ({ session: null }),
    component: RootLayout,
    notFoundComponent: NotFoundPage,
  });
  const routes: AnyRoute[] = PUBLIC_PAGES.map((page) =>
    createRoute({ getParentRoute: () => root, path: page.path, component: COMPONENTS[page.path] }),
  );
  return createRouter({
    routeTree: root.addChildren(routes),
    history: createMemoryHistory({ initialEntries: [path] }),
    context: {},
    isServer: true,
  });
}

/** The markup of `#root` for a public page, as the app renders it for a visitor. */
export async function renderPublicPage(path: PublicPath): Promise<string> {
  // The pages are lazy route chunks: loaded before rendering, so that the HTML has them rather than a fallback.
  await COMPONENTS[path].preload?.();
  const router = publicRouter(path);
  await router.load();
  return renderToString(
    <GraphQLProvider>
      <RouterProvider router={router} />
    </GraphQLProvider>,
  );
}
