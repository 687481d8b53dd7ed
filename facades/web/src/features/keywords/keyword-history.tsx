import { memo, useEffect, useMemo } from 'react';
import { useQuery } from 'urql';
import { ErrorMessage, Loading } from '../../components/status';
import { KeywordHistoryDocument } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { SelectField } from '../../components/select-field';
import { PositionChart } from './position-chart';
import { CHART_DAYS, DEVICES, type ChartDays, type KeywordDevice, type KeywordSearch } from './search-params';

export function ProviderMissing() {
  return (
    <div className="callout callout-warning" role="note" aria-labelledby="no-provider-title">
      <strong id="no-provider-title">No SERP provider is configured, so no position can be checked</strong>
      <p>
        Positions come from a search results provider, and this server has none: a rank check is recorded as failed with
        that reason — a position is never guessed. To track rankings, set <code>SERP_PROVIDER</code> (
        <code>serpapi</code>, <code>serper</code>, <code>dataforseo</code> or <code>searxng</code>) with its credentials
        (<code>SERP_API_KEY</code>, or <code>SERP_LOGIN</code> and <code>SERP_PASSWORD</code> for DataForSEO, or{' '}
        <code>SERP_BASE_URL</code> of your SearXNG instance) in the environment of the API and the rank worker, then
        restart them. The manual&apos;s Configuration page (<code>docs/configuration.md</code>) lists every setting.
      </p>
    </div>
  );
}

export const DEVICE_LABEL: Record<KeywordDevice, string> = { desktop: 'Desktop', mobile: 'Mobile' };

export function DaysSelect({ value, onChange, id }: { value: ChartDays; onChange(days: ChartDays): void; id: string }) {
  const options = CHART_DAYS.map((d) => ({ id: String(d), label: d === 365 ? 'Last year' : `Last ${d} days` }));
  return (
    <SelectField
      className="days-select"
      id={id}
      label="Period"
      options={options}
      value={String(value)}
      onChange={(key) => onChange(Number(key) as ChartDays)}
    />
  );
}

/**
 * Positions of one or several keywords over the chosen period, read when shown. Memoized: filtering or sorting the
 * table re-renders the page, never the chart (20 lines of a year are redrawn only when their data changes).
 */
export const HistoryChart = memo(function HistoryChart({
  projectId,
  keywordIds,
  days,
  caption,
  refreshKey,
}: {
  projectId: string;
  keywordIds: string[];
  days: ChartDays;
  caption: string;
  refreshKey: string;
}) {
  const [{ data, fetching, error }, refetch] = useQuery({
    query: KeywordHistoryDocument,
    variables: { projectId, days, keywordIds },
  });
  // New checks arrived (the page's list changed): read the history again.
  useEffect(() => {
    if (refreshKey) refetch({ requestPolicy: 'network-only' });
  }, [refreshKey, refetch]);
  const series = useMemo(() => {
    const order = new Map(keywordIds.map((id, i) => [id, i]));
    return [...(data?.keywordRankings ?? [])].sort((a, b) => order.get(a.keywordId)! - order.get(b.keywordId)!);
  }, [data, keywordIds]);
  // As tall as the chart it stands for, so the table below does not move when the chart arrives.
  if (!data && fetching)
    return (
      <div className="chart-pending">
        <Loading label="Loading the position history…" />
      </div>
    );
  if (!data) return <ErrorMessage problem={problemOf(error)} title="The history could not be loaded" />;
  return <PositionChart series={series} caption={caption} />;
});

/** The device and country filters: rendered again only when they or the countries change, not as one types. */
export const KeywordSelects = memo(function KeywordSelects({
  device,
  country,
  countries,
  onChange,
}: {
  device: KeywordDevice | undefined;
  country: string | undefined;
  countries: readonly string[];
  onChange(patch: Partial<KeywordSearch>): void;
}) {
  return (
    <>
      <SelectField
        label="Device"
        options={[{ id: 'all', label: 'All devices' }, ...DEVICES.map((d) => ({ id: d, label: DEVICE_LABEL[d] }))]}
        value={device ?? 'all'}
        onChange={(key) => onChange({ device: key === 'all' ? undefined : (key as KeywordDevice) })}
      />
      <SelectField
        label="Country"
        options={[{ id: 'all', label: 'All countries' }, ...countries.map((c) => ({ id: c, label: c.toUpperCase() }))]}
        value={country ?? 'all'}
        onChange={(key) => onChange({ country: key === 'all' ? undefined : key })}
      />
    </>
  );
});
