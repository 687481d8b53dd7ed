import { Link, type ErrorComponentProps } from '@tanstack/react-router';
import { Loading } from '../components/status';
import { useDocumentTitle } from '../components/document-title';

export function RoutePending() {
  return <Loading />;
}

/** An error no page handled (a chunk that failed to load, a bug): said plainly, with a way on. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  useDocumentTitle('Error');
  return (
    <section className="page narrow" aria-labelledby="error-title">
      <h1 id="error-title">This page could not be shown</h1>
      <div className="callout callout-error" role="alert">
        <p>{error instanceof Error ? error.message : 'An unexpected error occurred.'}</p>
      </div>
      <p className="actions">
        <button type="button" className="btn btn-secondary" onClick={reset}>
          Try again
        </button>
        <Link to="/" className="btn btn-quiet">
          Go to the start page
        </Link>
      </p>
    </section>
  );
}

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <section className="page narrow" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <p className="actions">
        <Link to="/" className="btn btn-primary">
          Go to the start page
        </Link>
        <Link to="/tools" className="btn btn-quiet">
          Free SEO tools
        </Link>
      </p>
    </section>
  );
}
