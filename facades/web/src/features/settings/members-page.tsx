import { useQuery } from 'urql';
import { useDocumentTitle } from '../../components/document-title';
import { ErrorMessage, Loading } from '../../components/status';
import { MembersDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatDateTime } from '../../lib/format';

const ROLE_LABEL: Record<string, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

export function MembersPage() {
  useDocumentTitle('Members');
  const [{ data, fetching, error }] = useQuery({ query: MembersDocument });
  return (
    <div className="settings-section">
      <div className="section-header">
        <div>
          <h2>Members</h2>
          <p className="muted">
            People in this organization. Owners and admins manage API keys and members; members use the projects.
          </p>
        </div>
      </div>
      {fetching && !data && <Loading label="Loading members…" />}
      <ErrorMessage problem={problemOf(error)} title="The members could not be loaded" />
      {data && (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Members</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Member since</th>
              </tr>
            </thead>
            <tbody>
              {data.members.map((m) => (
                <tr key={m.id}>
                  <th scope="row">{m.name}</th>
                  <td>{m.email}</td>
                  <td>{ROLE_LABEL[m.role] ?? m.role}</td>
                  <td>
                    <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
