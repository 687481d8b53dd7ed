import { useState, type FormEvent, type ReactNode } from 'react';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { Link, useRouteContext } from '@tanstack/react-router';
import { useClient } from 'urql';
import type { TypedDocumentNode } from '@urql/core';
import { usePublicPageHead } from '../landing';
import { formLevelProblem, problemOf, type ApiProblem } from '../../lib/api-problem';
import { ToolAbout, type ToolPath } from './tool-about';

/** Runs a tool's query when the form is sent (never from the cache: the page may have changed). */
export function useToolQuery<Data, Variables extends Record<string, unknown>>(
  document: TypedDocumentNode<Data, Variables>,
  labels: Record<string, string> = {},
) {
  const client = useClient();
  const [state, setState] = useState<{ data: Data | null; problem: ApiProblem | null; pending: boolean }>({
    data: null,
    problem: null,
    pending: false,
  });
  async function run(variables: Variables) {
    setState((s) => ({ ...s, pending: true, problem: null }));
    const result = await client.query(document, variables, { requestPolicy: 'network-only' }).toPromise();
    setState({ data: result.data ?? null, problem: problemOf(result.error, labels), pending: false });
  }
  return { ...state, run };
}

/** A tool's problem; a rate limit is explained, with what signing in changes. */
export function ToolProblem({ problem: anyProblem }: { problem: ApiProblem | null }) {
  const { session } = useRouteContext({ from: '__root__' });
  const problem = formLevelProblem(anyProblem);
  if (!problem) return null;
  const limited = problem.code === 'RATE_LIMITED';
  return (
    <div className="callout callout-error" role="alert">
      <strong>{limited ? 'Too many requests for now' : 'The analysis could not be done'}</strong>
      <p>{problem.message}</p>
      {limited && (
        <p>
          {session
            ? 'Your organization’s plan sets how many requests a minute you can make.'
            : 'Without an account, the free tools accept a few requests a minute from each visitor. '}
          {problem.retryAfterSeconds !== null && `You can try again in ${problem.retryAfterSeconds} seconds. `}
          {!session && (
            <>
              <Link to="/sign-up">Sign up</Link> or <Link to="/sign-in">sign in</Link> for a higher limit.
            </>
          )}
        </p>
      )}
    </div>
  );
}

export function ToolLayout({
  path,
  title,
  intro,
  children,
}: {
  path: ToolPath;
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  usePublicPageHead(path);
  return (
    <section className="page" aria-labelledby="tool-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/tools">Free tools</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{title}</span>
      </nav>
      <h1 id="tool-title">{title}</h1>
      <p className="lead">{intro}</p>
      {children}
      <ToolAbout path={path} />
    </section>
  );
}

/** A report section with a heading. */
export function ReportSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card report-section" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** Name/value pairs (headers, Open Graph properties) as a table of text. */
export function KeyValueTable({
  caption,
  value,
  empty = 'None found.',
}: {
  caption: string;
  value: unknown;
  empty?: string;
}) {
  const entries =
    value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value as Record<string, unknown>) : [];
  if (!entries.length) return <p className="muted">{empty}</p>;
  return (
    <div className="table-wrap">
      <table className="table table-compact">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">
                <code>{k}</code>
              </th>
              <td className="break">
                {Array.isArray(v)
                  ? v.map(String).join('\n')
                  : typeof v === 'object' && v !== null
                    ? JSON.stringify(v)
                    : String(v)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface ToolIssueView {
  code: string;
  title: string;
  severity: string;
  category: string;
}

export function ToolIssues({ issues }: { issues: readonly ToolIssueView[] }) {
  if (!issues.length) return <p className="verdict verdict-ok">No issues found.</p>;
  return (
    <ul className="tool-issues">
      {issues.map((i) => (
        <li key={i.code}>
          <span className={`badge badge-${i.severity.toLowerCase()}`}>
            {i.severity.charAt(0) + i.severity.slice(1).toLowerCase()}
          </span>{' '}
          {i.title} <code className="muted small">{i.code}</code>
        </li>
      ))}
    </ul>
  );
}

export function LineMessages({
  items,
  kind,
}: {
  items: readonly { line: number | null; message: string }[];
  kind: 'error' | 'warning';
}) {
  if (!items.length) return null;
  return (
    <ul className={`line-messages line-${kind}`}>
      {items.map((m, i) => (
        <li key={i}>
          {m.line !== null && <span className="line-number">Line {m.line}: </span>}
          {m.message}
        </li>
      ))}
    </ul>
  );
}

/** A tool's input form and, under it, what went wrong with the last run (errors of a field show at the field). */
export function ToolForm({
  onSubmit,
  problem,
  pending,
  submitLabel,
  children,
}: {
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  problem: ApiProblem | null;
  pending: boolean;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <>
      <Form className="form card tool-form" onSubmit={onSubmit} validationErrors={problem?.fields}>
        {children}
        <Button type="submit" variant="primary" isPending={pending}>
          {submitLabel}
        </Button>
      </Form>
      <ToolProblem problem={problem} />
    </>
  );
}

/** The verdict of a validator: valid or not, the summary line, then the errors and warnings by line. */
export function ValidationSummary({
  valid,
  validText,
  invalidText,
  summary,
  errors,
  warnings,
}: {
  valid: boolean;
  validText: string;
  invalidText: string;
  summary: ReactNode;
  errors: readonly { line: number | null; message: string }[];
  warnings: readonly { line: number | null; message: string }[];
}) {
  return (
    <ReportSection title="Summary">
      <p className={valid ? 'verdict verdict-ok' : 'verdict verdict-bad'}>{valid ? validText : invalidText}</p>
      <p className="muted">{summary}</p>
      <LineMessages items={errors} kind="error" />
      <LineMessages items={warnings} kind="warning" />
    </ReportSection>
  );
}
