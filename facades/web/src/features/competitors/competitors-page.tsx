import { useState, type FormEvent } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { Form } from 'react-aria-components';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useLivePoll } from '../../lib/use-live-poll';
import { useDocumentTitle } from '../../components/document-title';
import { Callout, EmptyState, FormProblem, Loading, PageLoadError } from '../../components/status';
import { TextField } from '../../components/text-field';
import { AddCompetitorDocument, ProjectCompetitorsDocument, RemoveCompetitorDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { plural } from '../../lib/format';
import { ProjectSectionHeader } from '../../components/section-header';
import { VisibilityChart } from './visibility-chart';
import type { Competitor } from './competitor-tables';
import { HomepageProfiles, PositionMatrix, SummaryTable } from './competitor-tables';

const route = getRouteApi('/app/projects/$projectId/competitors');
/** While a homepage analysis is queued, the page looks again this often (not while the tab is hidden), a few times. */
const PROFILE_POLL_MS = 4000;
const PROFILE_POLLS = 15;

function AddCompetitorForm({ projectId, onAdded }: { projectId: string; onAdded(): void }) {
  const [result, add] = useMutation(AddCompetitorDocument);
  const [submitted, setSubmitted] = useState(false);
  const [value, setValue] = useState('');
  const [added, setAdded] = useState<string | null>(null);
  const problem = submitted ? problemOf(result.error, { domain: 'Competitor domain' }) : null;
  // The API's sentence as it is when it is the field's whole message ("rival.com is already tracked…" keeps its case).
  const fields =
    problem &&
    Object.fromEntries(
      Object.entries(problem.fields).map(([k, v]) => [
        k,
        v.toLowerCase() === problem.message.toLowerCase() ? problem.message : v,
      ]),
    );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    setAdded(null);
    const res = await add({ projectId, domain: value.trim() });
    if (res.data) {
      setValue('');
      setSubmitted(false);
      setAdded(res.data.addCompetitor.domain);
      onAdded();
    }
  }

  return (
    <Form className="form competitor-form" onSubmit={(e) => void submit(e)} validationErrors={fields ?? undefined}>
      <FormProblem problem={problem} />
      <div className="competitor-form-row">
        <TextField
          name="domain"
          label="Competitor domain"
          value={value}
          onChange={setValue}
          isRequired
          maxLength={2048}
          placeholder="example.com"
          description="A host name or a URL; it is stored as the host, without www."
        />
        <Button type="submit" variant="primary" isPending={result.fetching}>
          Add competitor
        </Button>
      </div>
      <p className="muted small" role="status">
        {added ? `${added} added. Its homepage is being analysed.` : ''}
      </p>
    </Form>
  );
}

export function CompetitorsPage() {
  const { projectId } = route.useParams();
  const [{ data, fetching, error }, refetch] = useQuery({
    query: ProjectCompetitorsDocument,
    variables: { projectId, days: 90 },
  });
  const [removal, remove] = useMutation(RemoveCompetitorDocument);
  const [removing, setRemoving] = useState<Competitor | null>(null);
  useDocumentTitle(data ? `Competitors · ${data.project.name}` : 'Competitors');
  const pending = data?.competitorOverview.competitors.some((c) => !c.homepage) ?? false;
  // While a homepage profile is queued: every few seconds for about a minute, never while the tab is hidden.
  const [pollEpoch, setPollEpoch] = useState(0);
  useLivePoll(() => refetch({ requestPolicy: 'network-only' }), {
    active: pending,
    resetKey: pollEpoch,
    firstMs: PROFILE_POLL_MS,
    maxMs: PROFILE_POLL_MS,
    stopAfterMs: PROFILE_POLLS * PROFILE_POLL_MS,
  });

  if (fetching && !data) return <Loading label="Loading competitors…" />;
  if (!data) {
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to projects</Link>
      </PageLoadError>
    );
  }
  const { project, keywords, competitorOverview: overview } = data;
  const refresh = () => {
    setPollEpoch((n) => n + 1);
    refetch({ requestPolicy: 'network-only' });
  };
  const checked = overview.keywordsChecked > 0;
  const domains = [overview.project.domain, ...overview.competitors.map((c) => c.domain)];

  async function confirmRemove() {
    if (!removing) return;
    const res = await remove({ id: removing.id });
    if (!res.error) {
      setRemoving(null);
      refresh();
    }
  }

  return (
    <section className="page" aria-labelledby="competitors-title">
      <ProjectSectionHeader
        projectId={projectId}
        projectName={project.name}
        section="Competitors"
        titleId="competitors-title"
        description={
          <p className="muted">
            How {project.domain} ranks against the sites you compete with, for the keywords you track.
          </p>
        }
      />

      {!overview.serpProvider && (
        <Callout tone="warning" title="No SERP provider is configured">
          <p>
            Positions and visibility come from rank checks, and none can run: set <code>SERP_PROVIDER</code> (serpapi,
            serper, dataforseo or searxng) and its credentials on the server. Until then no position is shown.
          </p>
        </Callout>
      )}

      <section className="card" aria-labelledby="add-title">
        <h2 id="add-title">Add a competitor</h2>
        <AddCompetitorForm projectId={projectId} onAdded={refresh} />
      </section>

      {overview.keywordsTracked === 0 ? (
        <EmptyState title="No keywords tracked yet">
          <p>
            Visibility and positions are measured on the keywords you track.{' '}
            <Link to="/projects/$projectId/keywords" params={{ projectId }}>
              Add keywords in the Keywords section
            </Link>
            ; each rank check then records where you and your competitors rank.
          </p>
        </EmptyState>
      ) : (
        !checked &&
        overview.serpProvider && (
          <Callout title="No rank check yet">
            <p>
              {`${plural(overview.keywordsTracked, 'keyword')} tracked, none checked yet. `}
              Run “Check rankings now” in the{' '}
              <Link to="/projects/$projectId/keywords" params={{ projectId }}>
                Keywords section
              </Link>{' '}
              or wait for the daily check.
            </p>
          </Callout>
        )
      )}

      <section className="card" aria-labelledby="visibility-title">
        <div className="card-head">
          <h2 id="visibility-title">Visibility</h2>
          <span className="muted small">
            {checked
              ? `Over ${plural(overview.keywordsChecked, 'checked keyword')}: ` +
                'the share of clicks the positions would earn'
              : 'Not measured yet'}
          </span>
        </div>
        {overview.competitors.length === 0 && (
          <p className="muted">No competitors yet: add one above to compare it with {project.domain}.</p>
        )}
        <SummaryTable projectId={projectId} overview={overview} checked={checked} onRemove={setRemoving} />
      </section>

      {overview.history.length > 0 && (
        <section className="card" aria-labelledby="trend-title">
          <h2 id="trend-title">Visibility trend</h2>
          <VisibilityChart domains={domains} points={overview.history} />
        </section>
      )}

      {keywords.length > 0 && (
        <section className="card" aria-labelledby="matrix-title">
          <div className="card-head">
            <h2 id="matrix-title">Positions by keyword</h2>
            <span className="muted small">— not ranking within the checked results, or not checked yet</span>
          </div>
          <PositionMatrix keywords={keywords} overview={overview} />
        </section>
      )}

      {overview.competitors.length > 0 && (
        <section className="card" aria-labelledby="profiles-title">
          <h2 id="profiles-title">Homepage profiles</h2>
          <HomepageProfiles competitors={overview.competitors} />
        </section>
      )}

      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove competitor?"
        confirmLabel="Remove"
        onConfirm={() => void confirmRemove()}
        isPending={removal.fetching}
      >
        <p>
          {removing?.domain} will no longer be compared with {project.domain}. Its rank history stays in the keyword
          snapshots; add it again at any time.
        </p>
        {removal.error && <p role="alert">{problemOf(removal.error)?.message}</p>}
      </ConfirmDialog>
    </section>
  );
}
