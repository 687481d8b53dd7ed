import { useCallback, useMemo, useState } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useDocumentTitle } from '../../components/document-title';
import { ErrorMessage, Loading, PageLoadError } from '../../components/status';
import {
  KeywordListDocument,
  KeywordsPageDocument,
  RemoveProjectKeywordDocument,
  type KeywordRowFragment,
} from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { plural } from '../../lib/format';
import { PREFETCHED } from '../../lib/urql';
import { ExportButtons } from '../../components/export-buttons';
import { ProjectSectionHeader } from '../../components/section-header';
import { AddKeywordsDialog, type AddOutcome } from './add-keywords-dialog';
import { type ChartDays, type KeywordSearch } from './search-params';
import { ProviderMissing } from './keyword-history';
import { HistoryDialog } from './history-dialog';
import { RankCheckStatus, useRankCheck } from './rank-check';
import { checksKeyOf } from './keyword-list';
import { KeywordViews } from './keyword-view-tabs';

const route = getRouteApi('/app/projects/$projectId/keywords');

const addedNotice = ({ added, skipped }: AddOutcome) =>
  `Added ${plural(added, 'keyword')}` +
  (skipped ? `; ${plural(skipped, 'line')} skipped (repeats or already tracked).` : '.');

export function KeywordsPage() {
  const { projectId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [{ data, fetching, error }, refetchPage] = useQuery({
    query: KeywordsPageDocument,
    variables: { projectId },
    ...PREFETCHED,
  });
  // The list as the page's actions need it (a rank check's progress, the add dialog's repeats): the query KeywordList
  // renders, shared with it.
  const [{ data: list, fetching: listFetching }, refetchList] = useQuery({
    query: KeywordListDocument,
    variables: { projectId },
    ...PREFETCHED,
  });
  const [removeState, removeKeyword] = useMutation(RemoveProjectKeywordDocument);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<KeywordRowFragment | null>(null);
  const [charted, setCharted] = useState<KeywordRowFragment | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useDocumentTitle(data ? `Keywords · ${data.project.name}` : 'Keywords');

  const setSearch = useCallback(
    (patch: Partial<KeywordSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const openAdd = useCallback(() => setAdding(true), []);

  const all = useMemo(() => list?.keywords ?? [], [list]);
  const days: ChartDays = search.days ?? 30;
  const checksKey = useMemo(() => checksKeyOf(all), [all]);
  /** After a change of the list: its count (the page's query) and the list read again. */
  const reread = () => {
    refetchPage({ requestPolicy: 'network-only' });
    refetchList({ requestPolicy: 'network-only' });
  };

  // A list being read again (after keywords were added) is not yet the one a rank check is measured against.
  const rankCheck = { projectId, all, listLoaded: !!list && !listFetching, refetchList, setNotice, setProblem };
  const { running, done, startCheck, starting } = useRankCheck(rankCheck);

  if (fetching && !data) return <Loading label="Loading keywords…" />;
  if (!data) {
    return (
      <PageLoadError problem={problemOf(error)} what="Project">
        <Link to="/projects">Back to projects</Link>
      </PageLoadError>
    );
  }
  const project = data.project;
  const tracking = data.rankTracking;
  const limit = data.viewer.organization.usage.keywordsPerProjectLimit;
  const settings = project.settings;
  const count = project.counts.keywords;

  async function confirmRemove() {
    if (!removing) return;
    setProblem(null);
    const res = await removeKeyword({ id: removing.id });
    if (res.error) setProblem(problemOf(res.error));
    else {
      setNotice(`Removed “${removing.term}” and its ranking history.`);
      if (search.compare?.includes(removing.id))
        setSearch({ compare: search.compare.filter((id) => id !== removing.id) });
    }
    setRemoving(null);
    reread();
  }

  const onAdded = (outcome: AddOutcome) => {
    setNotice(addedNotice(outcome));
    reread();
  };

  return (
    <section className="page" aria-labelledby="keywords-title">
      <ProjectSectionHeader
        projectId={projectId}
        projectName={project.name}
        section="Keywords"
        titleId="keywords-title"
        description={
          <p className="muted">
            {plural(count, 'keyword')} tracked for {project.name}
            {tracking.provider ? ` · positions from ${tracking.provider}` : ''}
          </p>
        }
        actions={
          <>
            {count > 0 && <ExportButtons projectId={projectId} kind="keywords" />}
            <Button onPress={openAdd}>Add keywords</Button>
            <Button
              variant="primary"
              onPress={() => void startCheck()}
              isPending={starting}
              isDisabled={count === 0 || !list || listFetching || !!running}
            >
              Check rankings now
            </Button>
          </>
        }
      />

      {!tracking.providerConfigured && <ProviderMissing />}
      <ErrorMessage problem={problem} title="That did not work" />
      <RankCheckStatus running={running} done={done} notice={notice} />

      <KeywordViews
        count={count}
        projectId={projectId}
        search={search}
        setSearch={setSearch}
        onAdd={openAdd}
        onChart={setCharted}
        onRemove={setRemoving}
      />

      {adding && (
        <AddKeywordsDialog
          isOpen={adding}
          onOpenChange={setAdding}
          projectId={projectId}
          keywords={all}
          limit={limit}
          plan={data.viewer.organization.plan}
          defaults={{
            country: settings.rankCountry ?? 'us',
            language: settings.rankLanguage ?? 'en',
            device: settings.rankDevice === 'mobile' ? 'mobile' : 'desktop',
          }}
          onAdded={onAdded}
        />
      )}

      <HistoryDialog
        projectId={projectId}
        charted={charted}
        onClose={() => setCharted(null)}
        days={days}
        onDays={(d) => setSearch({ days: d })}
        refreshKey={checksKey}
      />

      <ConfirmDialog
        isOpen={!!removing}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove this keyword?"
        confirmLabel="Remove keyword"
        onConfirm={() => void confirmRemove()}
        isPending={removeState.fetching}
      >
        <p>“{removing?.term}” will no longer be tracked, and its ranking history is deleted. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}
