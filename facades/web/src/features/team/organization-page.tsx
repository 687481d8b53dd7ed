import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { FormDialog } from '../../components/confirm-dialog';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, ErrorMessage, Loading } from '../../components/status';
import { TextField } from '../../components/text-field';
import { TeamViewerDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { authClient } from '../../lib/auth-client';
import { authFailureMessage, callAuth, type AuthCallFailure } from '../../lib/auth-call';
import { formatDateTime } from '../../lib/format';
import { PLAN_LABEL } from '../../lib/plan';
import { useSessionChange } from '../../lib/session-change';

const SLUG_PATTERN = '[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,47}';
const SLUG_HELP = '2 to 48 lowercase letters, digits or hyphens; it must be unique.';

/** A slug proposed from a name (the user may change it). */
export const slugFrom = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');

interface FieldProblems {
  form: string | null;
  fields: { name?: string; slug?: string };
}

/** better-auth's and our rules' refusals, put next to the field they are about. */
function problemsOf(failure: AuthCallFailure | null): FieldProblems {
  const message = authFailureMessage(failure);
  const code = failure?.code ?? '';
  if (/SLUG/.test(code)) return { form: null, fields: { slug: message ?? 'Invalid slug.' } };
  if (/NAME/.test(code)) return { form: null, fields: { name: message ?? 'Invalid name.' } };
  return { form: message, fields: {} };
}

const NO_PROBLEM: FieldProblems = { form: null, fields: {} };

function CreateOrganizationDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange(open: boolean): void }) {
  const sessionChanged = useSessionChange();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<FieldProblems>(NO_PROBLEM);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setProblem(NO_PROBLEM);
    const res = await callAuth(() => authClient.organization.create({ name: name.trim(), slug: slug.trim() }));
    setPending(false);
    if (res.error || !res.data) {
      setProblem(problemsOf(res.error));
      return;
    }
    // The new organization is the session's active one now (better-auth sets it).
    onOpenChange(false);
    await sessionChanged('/projects');
  }

  return (
    <FormDialog isOpen={isOpen} onOpenChange={onOpenChange} title="Create organization">
      <Form className="form" onSubmit={(event) => void submit(event)} validationErrors={problem.fields}>
        {problem.form && (
          <div className="callout callout-error" role="alert">
            {problem.form}
          </div>
        )}
        <TextField
          name="name"
          label="Name"
          isRequired
          autoFocus
          maxLength={100}
          value={name}
          onChange={(value) => {
            setName(value);
            setProblem(NO_PROBLEM);
            if (!slugEdited) setSlug(slugFrom(value));
          }}
        />
        <TextField
          name="slug"
          label="Slug"
          isRequired
          maxLength={48}
          pattern={SLUG_PATTERN}
          value={slug}
          onChange={(value) => {
            setSlug(value);
            setProblem(NO_PROBLEM);
            setSlugEdited(true);
          }}
          description={SLUG_HELP}
        />
        <p className="muted small">
          You will be its owner, and it becomes your active organization. Its plan is the platform’s default for new
          organizations.
        </p>
        <div className="dialog-actions">
          <Button onPress={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="primary" isPending={pending}>
            Create organization
          </Button>
        </div>
      </Form>
    </FormDialog>
  );
}

/** Settings → Organization: its name and slug (owners and admins), and a new organization. */
export function OrganizationPage() {
  useDocumentTitle('Organization');
  const location = useLocation();
  const sessionChanged = useSessionChange();
  const [{ data, fetching, error }] = useQuery({ query: TeamViewerDocument });
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<FieldProblems>(NO_PROBLEM);
  const [saved, setSaved] = useState(false);

  // The header's "Create organization" comes here with #create.
  useEffect(() => {
    if (location.hash === 'create') setCreating(true);
  }, [location.hash]);

  if (fetching && !data) return <Loading label="Loading the organization…" />;
  const viewer = data?.viewer;
  if (!viewer) return <ErrorMessage problem={problemOf(error)} title="The organization could not be loaded" />;
  const org = viewer.organization;
  const manages = viewer.role === 'owner' || viewer.role === 'admin';

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get('name') ?? '').trim();
    const slug = String(form.get('slug') ?? '').trim();
    setPending(true);
    setProblem(NO_PROBLEM);
    setSaved(false);
    const res = await callAuth(() =>
      authClient.organization.update({ organizationId: org.id, data: { name, ...(slug !== org.slug && { slug }) } }),
    );
    setPending(false);
    if (res.error) {
      setProblem(problemsOf(res.error));
      return;
    }
    setSaved(true);
    // The header and the switcher show the name: every cached answer is refreshed.
    await sessionChanged('/settings/organization');
  }

  return (
    <div className="settings-section">
      <div className="section-header">
        <div>
          <h2>Organization</h2>
          <p className="muted">
            {PLAN_LABEL[org.plan]} plan · created <time dateTime={org.createdAt}>{formatDateTime(org.createdAt)}</time>
          </p>
        </div>
        <div className="page-actions">
          <Button onPress={() => setCreating(true)}>Create organization</Button>
        </div>
      </div>
      {manages ? (
        <div
          onInput={() => {
            if (problem !== NO_PROBLEM) setProblem(NO_PROBLEM);
            setSaved(false);
          }}
        >
          <Form
            className="form card"
            onSubmit={(event) => void save(event)}
            validationErrors={problem.fields}
            aria-label="Organization details"
          >
            {problem.form && (
              <div className="callout callout-error" role="alert">
                {problem.form}
              </div>
            )}
            <TextField name="name" label="Name" isRequired maxLength={100} defaultValue={org.name} />
            <TextField
              name="slug"
              label="Slug"
              isRequired
              maxLength={48}
              pattern={SLUG_PATTERN}
              defaultValue={org.slug}
              description={SLUG_HELP}
            />
            <div className="form-actions">
              <Button type="submit" variant="primary" isPending={pending}>
                Save changes
              </Button>
              <span role="status" className="muted small">
                {saved ? 'Saved.' : ''}
              </span>
            </div>
          </Form>
        </div>
      ) : (
        <>
          <dl className="facts">
            <div>
              <dt>Name</dt>
              <dd>{org.name}</dd>
            </div>
            <div>
              <dt>Slug</dt>
              <dd>{org.slug}</dd>
            </div>
          </dl>
          <Callout title="Owners and admins change these">
            <p>Your role in this organization is “{viewer.role}”.</p>
          </Callout>
        </>
      )}
      <CreateOrganizationDialog
        isOpen={creating}
        onOpenChange={(open) => {
          setCreating(open);
          if (!open && location.hash === 'create') window.history.replaceState(null, '', location.pathname);
        }}
      />
    </div>
  );
}
