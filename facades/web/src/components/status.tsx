import type { ReactNode } from 'react';
import { formLevelProblem, type ApiProblem } from '../lib/api-problem';
import { useFollowProjectOrganization } from '../lib/project-organization';

/** A polite live region while something loads. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

/**
 * Where a list the server streams after the page will go (lib/streamed-query.ts): React's script puts the list there,
 * so a browser without JavaScript says why it does not come.
 */
export function StreamedListPlaceholder({ label }: { label: string }) {
  return (
    <>
      <Loading label={label} />
      <noscript>
        <p className="muted">This list is shown by the app&apos;s scripts: turn on JavaScript to see it.</p>
      </noscript>
    </>
  );
}

/** An error the reader must notice, with the API's own words and what to do next. */
export function ErrorMessage({
  problem,
  title = 'Something went wrong',
  children,
}: {
  problem: ApiProblem | null;
  title?: string;
  children?: ReactNode;
}) {
  if (!problem) return null;
  return (
    <div className="callout callout-error" role="alert">
      <strong>{title}</strong>
      <p>{problem.message}</p>
      {problem.code === 'RATE_LIMITED' && problem.retryAfterSeconds !== null && (
        <p>You can try again in {problem.retryAfterSeconds} seconds.</p>
      )}
      {children}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <h2 className="empty-title">{title}</h2>
      {children}
    </div>
  );
}

export function Callout({
  tone = 'info',
  title,
  children,
}: {
  tone?: 'info' | 'warning' | 'success';
  title?: string;
  children: ReactNode;
}) {
  return (
    <div className={`callout callout-${tone}`}>
      {title && <strong>{title}</strong>}
      {children}
    </div>
  );
}

/**
 * A page whose main query failed: "X not found" (missing, or another organization's) or the API's reason. On a
 * project's page, a project of another of the user's organizations is opened there instead (links carry the
 * organization).
 */
export function PageLoadError({
  problem,
  what,
  children,
}: {
  problem: ApiProblem | null;
  what: string;
  children: ReactNode;
}) {
  const missing = problem?.code === 'NOT_FOUND';
  const follow = useFollowProjectOrganization(missing);
  if (follow.state === 'checking') return <Loading label="Looking for it in your other organizations…" />;
  if (follow.state === 'switching') return <Loading label={`Opening it in ${follow.organizationName}…`} />;
  return (
    <section className="page narrow">
      <h1>{missing ? `${what} not found` : `The ${what.toLowerCase()} could not be loaded`}</h1>
      <ErrorMessage
        problem={problem}
        title={missing ? 'It may have been deleted, or it belongs to another organization.' : 'Error'}
      />
      {children}
    </section>
  );
}

/** A form's problem that belongs to no field (the API's message, announced). */
export function FormProblem({ problem }: { problem: ApiProblem | null }) {
  const shown = formLevelProblem(problem);
  if (!shown) return null;
  return (
    <div className="callout callout-error" role="alert">
      {shown.message}
    </div>
  );
}
