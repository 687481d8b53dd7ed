import { useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { Button } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorMessage, Loading } from '../../components/status';
import {
  ComparisonIssueUrlsDocument,
  ComparisonPagesDocument,
  ComparisonUrlDocument,
  type ComparisonPagesQuery,
  type ComparisonUrlQuery,
  type IssueChange,
  type Severity,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { plural } from '../../lib/format';
import { PageLink } from '../../components/page-link';
import type { Pair } from './comparison-parts';
import { CHANGE_LABEL, ISSUE_CHANGE_LABEL, PageSide, SEEN_BEFORE, severityBadge } from './comparison-parts';

/** One page of a code's URLs for a change; "Load more" adds the next page below. */
export function CodeUrlPage({
  pair,
  change,
  code,
  after,
  onOpen,
}: {
  pair: Pair;
  change: IssueChange;
  code: string;
  after: string | null;
  onOpen(url: string): void;
}) {
  const [next, setNext] = useState<string | null>(null);
  const [{ data, fetching, error }] = useQuery({
    query: ComparisonIssueUrlsDocument,
    variables: { ...pair, change, code, after },
  });
  if (fetching && !data) return <Loading label="Loading URLs…" />;
  const connection = data?.auditComparison.issues;
  if (!connection) return <ErrorMessage problem={problemOf(error)} title="The URLs could not be loaded" />;
  // An issue the later audit no longer has is shown as the earlier audit saw it; the others as the later one does.
  const auditId = SEEN_BEFORE.has(change) ? pair.base : pair.head;
  return (
    <>
      <ul className="url-list">
        {connection.nodes.map((n) => (
          <li key={n.url}>
            <PageLink scope={{ projectId: pair.projectId, auditId }} url={n.url} className="url-text">
              {n.url}
            </PageLink>{' '}
            <Button variant="quiet" onPress={() => onOpen(n.url)} aria-label={`Before / after ${n.url}`}>
              Before / after
            </Button>
          </li>
        ))}
      </ul>
      {next ? (
        <CodeUrlPage pair={pair} change={change} code={code} after={next} onOpen={onOpen} />
      ) : (
        connection.pageInfo.hasNextPage && (
          <Button onPress={() => setNext(connection.pageInfo.endCursor)}>Load more URLs</Button>
        )
      )}
    </>
  );
}

/**
 * One check code of a change, with its count; its URLs on demand. A site fact (the server's compression, https…) is
 * one fact of the site, compared once whatever pages show it: "Site-wide", and the one page it is listed at.
 */
export function CodeRow({
  pair,
  change,
  row,
  onOpen,
}: {
  pair: Pair;
  change: IssueChange;
  row: { code: string; title: string; severity: Severity; siteFact: boolean; urls: number };
  onOpen(url: string): void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = `urls-${change}-${row.code}`;
  const shown = row.siteFact ? 'where' : 'URLs';
  return (
    <li className="comparison-code">
      <div className="comparison-code-head">
        {severityBadge(row.severity)}
        <span>
          <strong>{row.title}</strong> <code className="muted small">{row.code}</code>
        </span>
        <span className="numeric">{row.siteFact ? 'Site-wide' : plural(row.urls, 'URL')}</span>
        <Button onPress={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={panelId}>
          {open ? `Hide ${shown}` : `Show ${shown}`}
        </Button>
      </div>
      {open && (
        <div id={panelId}>
          {row.siteFact && (
            <p className="muted small">
              A fact of the site or its server, compared once for the whole site whatever pages show it. Listed at the
              first page that shows it:
            </p>
          )}
          <CodeUrlPage pair={pair} change={change} code={row.code} after={null} onOpen={onOpen} />
        </div>
      )}
    </li>
  );
}

export type ChangedUrl = ComparisonPagesQuery['auditComparison']['pages']['nodes'][number];

export function changedUrlColumns(onOpen: (url: string) => void): Column<ChangedUrl>[] {
  return [
    {
      id: 'url',
      header: 'URL',
      rowHeader: true,
      className: 'cell-url',
      cell: (p) => (
        <Button variant="quiet" className="url-text" onPress={() => onOpen(p.url)}>
          {p.url}
        </Button>
      ),
    },
    { id: 'change', header: 'Change', cell: (p) => p.changes.map((c) => CHANGE_LABEL[c]).join(', ') },
    { id: 'before', header: 'Before', cell: (p) => <PageSide side={p.before} /> },
    { id: 'after', header: 'After', cell: (p) => <PageSide side={p.after} /> },
  ];
}

export function PagesPage({ pair, after, onOpen }: { pair: Pair; after: string | null; onOpen(url: string): void }) {
  const [next, setNext] = useState<string | null>(null);
  const [{ data, fetching, error }] = useQuery({ query: ComparisonPagesDocument, variables: { ...pair, after } });
  if (fetching && !data) return <Loading label="Loading changed URLs…" />;
  const connection = data?.auditComparison.pages;
  if (!connection) return <ErrorMessage problem={problemOf(error)} title="The changed URLs could not be loaded" />;
  if (after === null && connection.totalCount === 0)
    return <p className="muted">Both audits crawled the same URLs, with the same status and indexability.</p>;
  return (
    <>
      <DataTable
        label="Changed URLs"
        caption={after === null ? 'URLs added, removed, or changed in status or indexability' : undefined}
        className="table table-pages"
        columns={changedUrlColumns(onOpen)}
        rows={connection.nodes}
        rowKey={(p) => p.url}
      />
      {next ? (
        <PagesPage pair={pair} after={next} onOpen={onOpen} />
      ) : (
        connection.pageInfo.hasNextPage && (
          <Button onPress={() => setNext(connection.pageInfo.endCursor)}>Load more URLs</Button>
        )
      )}
    </>
  );
}

export type UrlIssue = NonNullable<ComparisonUrlQuery['auditComparison']['url']>['issues'][number];

export const URL_ISSUE_COLUMNS: Column<UrlIssue>[] = [
  {
    id: 'change',
    header: 'Change',
    cell: (i) => <span className={`badge badge-change-${i.change.toLowerCase()}`}>{ISSUE_CHANGE_LABEL[i.change]}</span>,
  },
  {
    id: 'issue',
    header: 'Issue',
    cell: (i) => (
      <>
        {i.title} <code className="muted small">{i.code}</code>
        {i.siteFact && <span className="muted small cell-note">Site-wide: what became of it on the site</span>}
      </>
    ),
  },
  { id: 'severity', header: 'Severity', cell: (i) => severityBadge(i.severity) },
];

/** One URL before and after: its page in each audit and its issues, new first. */
export function UrlPanel({ pair, url, onClose }: { pair: Pair; url: string; onClose(): void }) {
  const [{ data, fetching, error }] = useQuery({ query: ComparisonUrlDocument, variables: { ...pair, url } });
  const found = data?.auditComparison.url;
  let body: ReactNode;
  if (fetching && !data) body = <Loading label="Loading the URL…" />;
  else if (!data) body = <ErrorMessage problem={problemOf(error)} title="The URL could not be loaded" />;
  else if (!found) body = <p className="muted">Neither audit crawled this URL or found an issue on it.</p>;
  else
    body = (
      <>
        <dl className="facts">
          <div>
            <dt>Before</dt>
            <dd>
              <PageSide side={found.before} />
              {found.before && (
                <>
                  {' · '}
                  <PageLink scope={{ projectId: pair.projectId, auditId: pair.base }} url={url}>
                    Page in the earlier audit
                  </PageLink>
                </>
              )}
            </dd>
          </div>
          <div>
            <dt>After</dt>
            <dd>
              <PageSide side={found.after} />
              {found.after && (
                <>
                  {' · '}
                  <PageLink scope={{ projectId: pair.projectId, auditId: pair.head }} url={url}>
                    Page in the later audit
                  </PageLink>
                </>
              )}
            </dd>
          </div>
          {found.changes.length > 0 && (
            <div>
              <dt>Change</dt>
              <dd>{found.changes.map((c) => CHANGE_LABEL[c]).join(', ')}</dd>
            </div>
          )}
        </dl>
        {found.issues.length === 0 ? (
          <p className="muted">No issues on this URL in either audit.</p>
        ) : (
          <DataTable
            label="Issues of this URL"
            caption="Issues of this URL in both audits"
            className="table table-compact"
            columns={URL_ISSUE_COLUMNS}
            rows={found.issues}
            rowKey={(i) => i.code}
          />
        )}
      </>
    );
  return (
    <section className="card" aria-labelledby="url-compare-title">
      <div className="card-head">
        <h2 id="url-compare-title" className="url-text">
          {url}
        </h2>
        <Button onPress={onClose}>Close</Button>
      </div>
      {body}
    </section>
  );
}
