import { useState } from 'react';
import { useQuery } from 'urql';
import { Button } from '../../components/button';
import { ErrorMessage, Loading } from '../../components/status';
import { IssueOccurrencesDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { Evidence } from './evidence';
import { FixSuggestion } from './fix-suggestion';

interface OccurrenceScope {
  projectId: string;
  auditId: string;
  issueId: string;
}

/** One page of 50 affected URLs; the last page loaded offers the next. */
function OccurrencePage({
  scope,
  after,
  onLoaded,
}: {
  scope: OccurrenceScope;
  after: string | null;
  onLoaded?(): void;
}) {
  const [{ data, fetching, error }] = useQuery({
    query: IssueOccurrencesDocument,
    variables: { ...scope, after },
    requestPolicy: 'cache-first',
  });
  const [next, setNext] = useState<string | null>(null);
  const connection = data?.audit.issue.occurrences;
  if (fetching && !data) return <Loading label="Loading affected pages…" />;
  if (!connection) return <ErrorMessage problem={problemOf(error)} title="The affected pages could not be loaded" />;
  return (
    <>
      {connection.nodes.map((o) => (
        <li key={o.id} className="occurrence">
          <span className="url-text">{o.url}</span>
          <Evidence value={o.evidence} />
          <FixSuggestion projectId={scope.projectId} issueId={scope.issueId} url={o.url} />
        </li>
      ))}
      {next ? (
        <OccurrencePage scope={scope} after={next} onLoaded={onLoaded} />
      ) : (
        connection.pageInfo.hasNextPage && (
          <li className="occurrence-more">
            <Button onPress={() => (setNext(connection.pageInfo.endCursor), onLoaded?.())}>
              Load more affected pages
            </Button>
          </li>
        )
      )}
    </>
  );
}

export function IssueOccurrences(props: OccurrenceScope & { onLoaded?(): void }) {
  const { onLoaded, ...scope } = props;
  return (
    <ul className="occurrences" aria-label="Affected pages">
      <OccurrencePage scope={scope} after={null} onLoaded={onLoaded} />
    </ul>
  );
}
