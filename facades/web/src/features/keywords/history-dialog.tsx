import { useMemo } from 'react';
import { Button } from '../../components/button';
import { FormDialog } from '../../components/confirm-dialog';
import type { KeywordRowFragment } from '../../gql/graphql';
import { DaysSelect, HistoryChart } from './keyword-history';
import type { ChartDays } from './search-params';

/** One keyword's position history over the chosen days, in a dialog. */
export function HistoryDialog({
  projectId,
  charted,
  onClose,
  days,
  onDays,
  refreshKey,
}: {
  projectId: string;
  charted: KeywordRowFragment | null;
  onClose(): void;
  days: ChartDays;
  onDays(days: ChartDays): void;
  refreshKey: string;
}) {
  const chartedId = charted?.id;
  const chartedIds = useMemo(() => (chartedId ? [chartedId] : []), [chartedId]);
  return (
    <FormDialog isOpen={!!charted} onOpenChange={(open) => !open && onClose()} title="Position history">
      {charted && (
        <div className="keyword-history">
          <div className="card-head">
            <p>
              <strong>{charted.term}</strong>{' '}
              <span className="muted">
                · {charted.country.toUpperCase()} · {charted.device} · {charted.language}
              </span>
            </p>
            <DaysSelect id="history-days" value={days} onChange={onDays} />
          </div>
          <HistoryChart
            projectId={projectId}
            keywordIds={chartedIds}
            days={days}
            refreshKey={refreshKey}
            caption={
              `Position of “${charted.term}” over the last ${days} days ` +
              '(1 is the top result; gaps: failed or not found)'
            }
          />
          <div className="dialog-actions">
            <Button slot="close" onPress={onClose}>
              Close
            </Button>
          </div>
        </div>
      )}
    </FormDialog>
  );
}
