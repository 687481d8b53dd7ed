import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { GraphQLProvider, currentGraphQLClient } from './lib/graphql-client';
import { currentSession } from './lib/session';
import { createAppRouter } from './app/router';
import { AppHeader } from './features/shell';
import './styles.css';

const router = createAppRouter({ loadSession: currentSession, graphql: currentGraphQLClient });

// The first page's code and the session are fetched at once: the route guards wait for the session, and the
// router would only then start loading the page's chunks. (A page the server rendered carries its session.)
void currentSession();
for (const route of router.getMatchedRoutes(window.location.pathname)[0])
  void router.loadRouteChunk(route)?.catch(() => undefined);

// The signed-in header's code too: rendered before it arrived, the header of a page the server rendered went blank
// (its Suspense placeholder) for 300-700 ms after the first render, on every signed-in page.
const header = currentSession()
  .then((session) => (session ? AppHeader.preload?.() : undefined))
  .catch(() => undefined);

const root = createRoot(document.getElementById('root')!);
// The first render waits for the router to have the page (session, route chunks) and, for a signed-in user, the
// header: a page rendered by the server (a signed-in page, with its query results) or at build time (a public page)
// stays on screen until then and is replaced by the same markup in one commit, never by a blank or pending frame.
void Promise.all([router.load().catch(() => undefined), header])
  .catch(() => undefined)
  .finally(() =>
    root.render(
      <StrictMode>
        <GraphQLProvider>
          <RouterProvider router={router} />
        </GraphQLProvider>
      </StrictMode>,
    ),
  );
