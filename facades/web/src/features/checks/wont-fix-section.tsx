import { useMutation, useQuery } from 'urql';
import { Button } from '../../components/button';
import { ErrorMessage, FormProblem } from '../../components/status';
import { TableWrap } from '../../components/table-wrap';
import { ProjectWontFixesDocument, UndoWontFixDocument, type ProjectWontFixesQuery } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatDateTime } from '../../lib/format';

type Marking = ProjectWontFixesQuery['project']['wontFixes'][number];

/** Whatever shows scores, issue counts or occurrences is read again after a marking goes. */
const REFRESH = { additionalTypenames: ['Audit', 'Issue', 'IssueOccurrence', 'Project', 'WontFix'] };

function MarkingRow({ projectId, marking }: { projectId: string; marking: Marking }) {
  const [{ fetching, error }, undo] = useMutation(UndoWontFixDocument);
  return (
    <tr>
      <td>
        {marking.title}
        <br />
        <code className="small">{marking.code}</code>
      </td>
      <td className="url-text">{marking.url}</td>
      <td>{marking.reason}</td>
      <td>
        {marking.markedByName}
        <br />
        <span className="muted small">{formatDateTime(marking.markedAt)}</span>
      </td>
      <td>
        <Button
          variant="quiet"
          isPending={fetching}
          onPress={() => void undo({ projectId, id: marking.id }, REFRESH)}
          aria-label={`Undo won't fix of ${marking.url}`}
        >
          Undo
        </Button>
        <FormProblem problem={problemOf(error)} />
      </td>
    </tr>
  );
}

/**
 * The project's "won't fix" markings (made from an issue's affected URLs): what, where, why, who and when, each
 * with Undo. Every member of the organization sees them.
 */
export function WontFixSection({ projectId }: { projectId: string }) {
  const [{ data, error }] = useQuery({ query: ProjectWontFixesDocument, variables: { id: projectId } });
  const markings = data?.project.wontFixes ?? [];
  return (
    <section aria-labelledby="wont-fix-title">
      <h2 id="wont-fix-title">Won&apos;t fix</h2>
      <p className="muted">
        Findings marked &ldquo;won&apos;t fix&rdquo; on one URL, from an issue&apos;s affected pages. They stay listed
        in their issues and are left out of the score while the page stays as it is; an audit that finds the page
        changed drops the marking.
      </p>
      <ErrorMessage problem={problemOf(error)} title="The won't fix markings could not be loaded" />
      {data && markings.length === 0 && <p className="muted small">Nothing is marked won&apos;t fix.</p>}
      {markings.length > 0 && (
        <TableWrap label="Won't fix markings">
          <table className="table table-compact">
            <caption className="visually-hidden">Won&apos;t fix markings</caption>
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">URL</th>
                <th scope="col">Reason</th>
                <th scope="col">Marked by</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {markings.map((m) => (
                <MarkingRow key={m.id} projectId={projectId} marking={m} />
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
