import { useState } from 'react';
import { useQuery } from 'urql';
import { Button } from '../../components/button';
import { ErrorMessage, Loading } from '../../components/status';
import { IssueOccurrencesDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { Evidence } from './evidence';
import { FixSuggestion } from './fix-suggestion';
import { opensPageView, PageLink, type PageScope } from '../../components/page-link';
import { RankingKeywords } from './ranking-keywords';
import { WontFixControl } from './wont-fix';

interface OccurrenceScope extends PageScope {
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
    variables: { projectId: scope.projectId, auditId: scope.auditId, issueId: scope.issueId, after },
    requestPolicy: 'cache-first',
  });
  const [next, setNext] = useState<string | null>(null);
  const connection = data?.audit.issue.occurrences;
  // Inside the list: whatever stands in for the rows is a list item too.
  if (fetching && !data)
    return (
      <li className="occurrence-more">
        <Loading label="Loading affected pages…" />
      </li>
    );
  if (!connection)
    return (
      <li className="occurrence-more">
        <ErrorMessage problem={problemOf(error)} title="The affected pages could not be loaded" />
      </li>
    );
  return (
    <>
      {connection.nodes.map((o) => (
        <li key={o.id} className="occurrence">
          {opensPageView(scope, o.url) ? (
            <PageLink scope={scope} url={o.url} className="url-text">
              {o.url}
            </PageLink>
          ) : (
            <span className="url-text">{o.url}</span>
          )}
          <WontFixControl
            projectId={scope.projectId}
            auditId={scope.auditId}
            code={data.audit.issue.code}
            url={o.url}
            marking={o.wontFix ?? null}
          />
          <RankingKeywords keywords={o.rankingKeywords} />
          <Evidence view={o.details ?? null} scope={scope} />
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
