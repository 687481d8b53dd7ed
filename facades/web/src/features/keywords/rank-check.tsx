import { useEffect, useState } from 'react';
import { useMutation, type UseQueryExecute } from 'urql';
import { Callout } from '../../components/status';
import { CheckProjectRankingsDocument, type KeywordRowFragment } from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { plural } from '../../lib/format';
import { useLivePoll } from '../../lib/use-live-poll';

/** How often the list is read again while a rank check runs, and for how long at most. */
const POLL_MS = 3000;
const POLL_FOR_MS = 5 * 60_000;
/** A rank check the user started: each keyword's latest check time then; done when all of them changed. */
export interface RunningCheck {
  before: Map<string, string | null>;
  until: number;
}

/**
 * "Check rankings now": queues the project's rank check, then reads the list again until every keyword has a newer
 * check (or gives up after POLL_FOR_MS), reporting through the page's notice and problem.
 */
export function useRankCheck({
  projectId,
  all,
  listLoaded,
  refetchList,
  setNotice,
  setProblem,
}: {
  projectId: string;
  all: readonly KeywordRowFragment[];
  listLoaded: boolean;
  refetchList: UseQueryExecute;
  setNotice(notice: string | null): void;
  setProblem(problem: ApiProblem | null): void;
}) {
  const [checkState, checkRankings] = useMutation(CheckProjectRankingsDocument);
  const [running, setRunning] = useState<RunningCheck | null>(null);

  const pending = running
    ? all.filter((k) => running.before.has(k.id) && (k.lastCheck?.checkedAt ?? null) === running.before.get(k.id))
    : [];
  const done = running ? running.before.size - pending.length : 0;
  useEffect(() => {
    if (running && listLoaded && pending.length === 0) {
      setRunning(null);
      setNotice(`Rank check finished: ${plural(running.before.size, 'keyword')} checked.`);
    }
  }, [running, listLoaded, pending.length, setNotice]);
  useLivePoll(
    () => {
      if (running && Date.now() > running.until) {
        setRunning(null);
        setNotice('The rank check is taking longer than expected; results will appear here as they arrive.');
        return;
      }
      refetchList({ requestPolicy: 'network-only' });
    },
    { active: !!running, firstMs: POLL_MS, maxMs: POLL_MS },
  );

  async function startCheck() {
    setProblem(null);
    setNotice(null);
    const res = await checkRankings({ projectId });
    if (res.error || !res.data) {
      setProblem(problemOf(res.error));
      return;
    }
    if (!res.data.checkRankings.queued) {
      // The same minute's check (the API runs one per project per minute): its results are the latest.
      setNotice('A rank check of this project already ran this minute: the list shows its results.');
      refetchList({ requestPolicy: 'network-only' });
      return;
    }
    setRunning({
      before: new Map(all.map((k) => [k.id, k.lastCheck?.checkedAt ?? null])),
      until: Date.now() + POLL_FOR_MS,
    });
    setNotice(`Rank check queued for ${plural(res.data.checkRankings.keywords, 'keyword')}.`);
  }

  return { running, done, startCheck, starting: checkState.fetching };
}

/** A running check's progress, else the page's last notice; announced politely. */
export function RankCheckStatus({
  running,
  done,
  notice,
}: {
  running: RunningCheck | null;
  done: number;
  notice: string | null;
}) {
  return (
    <div role="status" aria-live="polite" className="keyword-status">
      {running ? (
        <Callout title="Checking rankings…">
          <p>
            {done} of {plural(running.before.size, 'keyword')} checked. The list updates as results arrive
            {typeof document !== 'undefined' && document.visibilityState === 'hidden' ? ' (paused while hidden)' : ''}.
          </p>
        </Callout>
      ) : (
        notice && <p className="notice">{notice}</p>
      )}
    </div>
  );
}
