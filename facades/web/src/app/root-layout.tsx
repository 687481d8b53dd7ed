import { Suspense } from 'react';
import { Link, Outlet, useRouteContext, useRouterState } from '@tanstack/react-router';
import { AppHeader } from '../features/shell';

/** Header for visitors: what they can use without an account. */
function PublicHeader() {
  return (
    <header className="app-header">
      <Link to="/" className="brand">
        <img src="/favicon.svg" alt="" width="24" height="24" />
        <span className="brand-text">SEO Audit Platform</span>
      </Link>
      <nav aria-label="Main" className="header-nav">
        <Link to="/tools" activeProps={{ 'aria-current': 'page' }}>
          Free tools
        </Link>
        <a href="/docs">API docs</a>
      </nav>
      <div className="header-end">
        <Link to="/sign-in" className="btn btn-quiet">
          Sign in
        </Link>
        <Link to="/sign-up" className="btn btn-primary">
          Sign up
        </Link>
      </div>
    </header>
  );
}

/** Same height as the headers, while the signed-in header's code loads: nothing below moves when it arrives. */
const HeaderPlaceholder = () => <header className="app-header" aria-busy="true" />;

export function RootLayout() {
  const { session } = useRouteContext({ from: '__root__' });
  const explorer = useRouterState({ select: (s) => s.location.pathname === '/graphql/explorer' });
  return (
    <div className={explorer ? 'layout layout-full' : 'layout'}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      {session ? (
        <Suspense fallback={<HeaderPlaceholder />}>
          <AppHeader user={session.user} />
        </Suspense>
      ) : (
        <PublicHeader />
      )}
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      {!explorer && (
        <footer className="app-footer">
          <nav aria-label="Footer">
            <Link to="/tools">Free tools</Link>
            <a href="/docs">REST API reference</a>
            <Link to="/graphql/explorer" reloadDocument>
              GraphQL explorer
            </Link>
          </nav>
          <p>Open-source SEO audit platform.</p>
        </footer>
      )}
    </div>
  );
}
