import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { SelectField } from '../../components/select-field';
import { FormProblem } from '../../components/status';
import { TextField } from '../../components/text-field';
import {
  ClearCrawlLoginDocument,
  ConfirmCrawlLoginDocument,
  ProjectCrawlLoginDocument,
  SetCrawlLoginDocument,
  type CrawlLoginInput,
  type CrawlLoginKind,
} from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { KINDS, LABELS, LoginFields, LoginStatus } from './crawl-login-parts';

/** The write-only fields of each kind: never shown again once saved. */
const SECRET_FIELDS: Record<CrawlLoginKind, string[]> = {
  FORM: ['username', 'password'],
  COOKIE: ['cookies'],
  BASIC: ['username', 'password'],
  BEARER: ['token'],
  HEADER: ['headerValue'],
};

const EMPTY = { username: '', password: '', cookies: '', token: '', headerValue: '' };

/**
 * A project's crawl login: how audits sign in to pages behind a login. The secret values are write-only: the API
 * never returns them, so a saved login shows which fields are set and takes a new value to replace one.
 */
export function CrawlLoginSection({ projectId }: { projectId: string }) {
  const [{ data }] = useQuery({ query: ProjectCrawlLoginDocument, variables: { projectId } });
  const stored = data?.project.crawlLogin ?? null;
  const [saveResult, save] = useMutation(SetCrawlLoginDocument);
  const [clearResult, clear] = useMutation(ClearCrawlLoginDocument);
  const [confirmResult, confirmLogin] = useMutation(ConfirmCrawlLoginDocument);
  const [kind, setKind] = useState<CrawlLoginKind | null>(null);
  const [facts, setFacts] = useState<Record<string, string> | null>(null);
  const [secrets, setSecrets] = useState(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const current: CrawlLoginKind = kind ?? stored?.kind ?? 'FORM';
  const shown = facts ?? {
    loginUrl: stored?.loginUrl ?? '',
    usernameField: stored?.usernameField ?? 'username',
    passwordField: stored?.passwordField ?? 'password',
    headerName: stored?.headerName ?? '',
  };
  const savedSecrets = stored !== null && stored.kind === current;
  const problem = useMemo(
    () => (submitted ? problemOf(saveResult.error, LABELS) : null),
    [submitted, saveResult.error],
  );

  const setFact = (field: string, value: string) => setFacts({ ...shown, [field]: value });
  const setSecret = (field: keyof typeof EMPTY, value: string) => setSecrets((s) => ({ ...s, [field]: value }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    setSubmitted(true);
    const input: CrawlLoginInput = { kind: current };
    // Empty write-only fields are left out: the stored values stay.
    for (const field of SECRET_FIELDS[current]) {
      const value = secrets[field as keyof typeof EMPTY];
      if (value) (input as Record<string, unknown>)[field] = value;
    }
    if (current === 'FORM') {
      input.loginUrl = shown.loginUrl.trim();
      input.usernameField = shown.usernameField.trim();
      input.passwordField = shown.passwordField.trim();
    }
    if (current === 'HEADER') input.headerName = shown.headerName.trim();
    const res = await save({ projectId, input });
    if (res.data) {
      setSecrets(EMPTY);
      setFacts(null);
      setKind(null);
      setMessage('Saved. Audits of this project sign in before they crawl.');
    }
  }

  async function remove() {
    const res = await clear({ projectId });
    setConfirming(false);
    if (res.data) {
      setSecrets(EMPTY);
      setFacts(null);
      setKind(null);
      setSubmitted(false);
      setMessage('Removed. Audits crawl the site signed out.');
    }
  }

  async function confirmForCurrentSite() {
    const res = await confirmLogin({ projectId });
    if (res.data) setMessage('Confirmed. Audits sign in again, within the current URL and scope.');
    else setMessage(problemOf(res.error, LABELS)?.message ?? 'The login could not be confirmed.');
  }

  const secretDescription = (what: string) =>
    savedSecrets ? `Saved — enter a new ${what} to replace it.` : 'Stored encrypted; never shown again.';
  const secretField = (field: keyof typeof EMPTY, what: string, type: 'password' | 'text' = 'password') => (
    <TextField
      name={field}
      label={LABELS[field]!}
      type={type}
      autoComplete="off"
      value={secrets[field]}
      onChange={(value) => setSecret(field, value)}
      isRequired={!savedSecrets}
      description={secretDescription(what)}
      errorMessage={problem?.fields[field] ?? null}
    />
  );

  return (
    <section className="card" aria-labelledby="crawl-login-title">
      <h2 id="crawl-login-title">Crawl login</h2>
      <p className="muted small">
        For pages behind a login (a staging site, a member area). The credentials are sent only to this project&apos;s
        own host and scope as they were when the login was saved — never to other sites it links to, nor to redirects
        that leave it — and links that look like a logout are requested signed out. When the project&apos;s URL changes,
        subdomains are turned on or the scope is widened, the login is suspended until an owner or admin confirms it.
      </p>
      <LoginStatus
        stored={stored}
        confirmPending={confirmResult.fetching}
        onConfirm={() => void confirmForCurrentSite()}
      />
      <Form className="form" onSubmit={(event) => void submit(event)} validationBehavior="aria">
        <FormProblem problem={problem} />
        <SelectField
          label={LABELS.kind!}
          options={KINDS}
          value={current}
          onChange={(id) => {
            setKind(id as CrawlLoginKind);
            setSecrets(EMPTY);
          }}
        />
        <div className="form settings-grid">
          <LoginFields
            kind={current}
            shown={shown}
            setFact={setFact}
            errors={problem?.fields ?? {}}
            secretField={secretField}
          />
        </div>
        <div className="form-actions">
          <Button type="submit" variant="primary" isPending={saveResult.fetching}>
            Save login
          </Button>
          {stored && (
            <Button variant="danger" onPress={() => setConfirming(true)}>
              Remove login
            </Button>
          )}
        </div>
        {message && (
          <p className="small" role="status">
            {message}
          </p>
        )}
      </Form>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title="Remove the crawl login?"
        confirmLabel="Remove login"
        onConfirm={() => void remove()}
        isPending={clearResult.fetching}
      >
        <p>Audits of this project will crawl the site signed out. The stored credentials are deleted.</p>
      </ConfirmDialog>
    </section>
  );
}
