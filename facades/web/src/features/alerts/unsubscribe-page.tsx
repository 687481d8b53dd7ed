import { Link, getRouteApi } from '@tanstack/react-router';
import { useMutation } from 'urql';
import { Button } from '../../components/button';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, ErrorMessage } from '../../components/status';
import { UnsubscribeAlertEmailsDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { plural } from '../../lib/format';

const route = getRouteApi('/unsubscribe');

/**
 * An alert e-mail's unsubscribe link (/unsubscribe?token=…), no sign-in needed. Opening it changes nothing: a mail
 * scanner that fetches links must not unsubscribe anyone; the person confirms with the button.
 */
export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe from alert e-mails');
  const { token } = route.useSearch();
  const [result, unsubscribe] = useMutation(UnsubscribeAlertEmailsDocument);
  const done = result.data?.unsubscribeAlertEmails;

  return (
    <section className="page auth-page" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title">Unsubscribe from alert e-mails</h1>
      {!token ? (
        <div className="callout callout-error" role="alert">
          <strong>This link has no unsubscribe token</strong>
          <p>Open the link from the e-mail as it is.</p>
        </div>
      ) : done ? (
        <div role="status">
          <Callout tone="success" title="You are unsubscribed">
            <p>
              {done.message}{' '}
              {done.projects > 0
                ? `Alert e-mails of ${plural(done.projects, 'project')} were turned off.`
                : 'None were on any more.'}{' '}
              Choose them again on a project’s Alerts page at any time.
            </p>
          </Callout>
          <p>
            <Link to="/projects">Go to your projects</Link>
          </p>
        </div>
      ) : (
        <>
          <p>
            Confirm to stop every alert e-mail sent to you: immediate alerts and weekly digests, for all projects.
            Webhooks and other members’ e-mails are not changed.
          </p>
          <ErrorMessage problem={problemOf(result.error)} title="Not unsubscribed" />
          <Button variant="primary" onPress={() => void unsubscribe({ token })} isPending={result.fetching}>
            Unsubscribe
          </Button>
        </>
      )}
    </section>
  );
}
