import { useEffect, useMemo, useState } from 'react';
import { Input, Label, SearchField } from 'react-aria-components';
import { useQuery } from 'urql';
import { SelectField } from '../../components/select-field';
import { EmptyState, ErrorMessage, Loading } from '../../components/status';
import { KeywordCannibalisationDocument, type KeywordCannibalisationQuery } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatDateTime, formatNumber, formatShortDate, plural } from '../../lib/format';
import {
  CANNIBALISATION_DAYS,
  CANNIBALISATION_MIN,
  type CannibalisationDays,
  type CannibalisationMin,
  type KeywordSearch,
} from './search-params';

type Cannibalised = KeywordCannibalisationQuery['keywordCannibalisation'][number];

const isHttpUrl = (url: string) => /^https?:\/\//i.test(url);
const URL_DELAY_MS = 300;

/**
 * Cannibalisation: the keywords for which two or more of the site's URLs ranked within the window (at one check or
 * across checks), as the API finds them in the stored SERP snapshots, with each URL's positions over time. The
 * window and the minimum go to the API; the search filters the terms as one types.
 */
export function CannibalisationSection({
  projectId,
  search,
  setSearch,
}: {
  projectId: string;
  search: KeywordSearch;
  setSearch(patch: Partial<KeywordSearch>): void;
}) {
  const days: CannibalisationDays = search.cDays ?? 14;
  const minUrls: CannibalisationMin = search.cMin ?? 2;
  const [{ data, fetching, error }] = useQuery({
    query: KeywordCannibalisationDocument,
    variables: { projectId, days, minUrls },
  });
  const [text, setText] = useState(search.cq ?? '');
  useEffect(() => {
    const cq = text.trim() || undefined;
    if (cq === search.cq) return;
    const timer = setTimeout(() => setSearch({ cq }), URL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const all = useMemo(() => data?.keywordCannibalisation ?? [], [data]);
  const q = text.trim().toLocaleLowerCase();
  const shown = q ? all.filter((k) => k.term.toLocaleLowerCase().includes(q)) : all;

  return (
    <>
      <p className="muted">
        Keywords for which two or more of this site’s URLs ranked in the period — at the same check, or one after the
        other (the ranking URL switched).
      </p>
      <p className="muted small">
        A site URL is one on the project’s host, over http or https, with or without <code>www.</code>; its subdomains
        count too when the project counts them for rankings.
      </p>
      <div className="filters card" role="search" aria-label="Filter cannibalised keywords">
        <SearchField className="field search-field" value={text} onChange={setText} onClear={() => setText('')}>
          <Label className="field-label">Search keywords</Label>
          <Input className="input" placeholder="Type to filter" />
        </SearchField>
        <SelectField
          id="cannibalisation-days"
          label="Period"
          options={CANNIBALISATION_DAYS.map((d) => ({ id: String(d), label: `Last ${d} days` }))}
          value={String(days)}
          onChange={(key) => setSearch({ cDays: Number(key) as CannibalisationDays })}
        />
        <SelectField
          id="cannibalisation-min"
          label="Site URLs"
          options={CANNIBALISATION_MIN.map((n) => ({ id: String(n), label: `${n} or more` }))}
          value={String(minUrls)}
          onChange={(key) => setSearch({ cMin: Number(key) as CannibalisationMin })}
        />
      </div>
      {fetching && !data ? (
        <Loading label="Reading the stored results…" />
      ) : !data ? (
        <ErrorMessage problem={problemOf(error)} title="The cannibalisation could not be loaded" />
      ) : (
        <>
          <p className="muted" role="status" aria-live="polite">
            {q && shown.length !== all.length
              ? `${formatNumber(shown.length)} of ${plural(all.length, 'cannibalised keyword')} match`
              : `${plural(all.length, 'cannibalised keyword')} in the last ${days} days`}
          </p>
          {shown.length === 0 ? (
            <EmptyState title="No cannibalised keyword">
              <p>
                {q
                  ? 'No cannibalised keyword matches this search.'
                  : `In the last ${days} days, no keyword had ${minUrls} or more of this site’s URLs ranking.`}
              </p>
            </EmptyState>
          ) : (
            <ul className="cannibalisation-list">
              {shown.map((k) => (
                <li key={k.keywordId}>
                  <CannibalisedKeyword k={k} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </>
  );
}

function CannibalisedKeyword({ k }: { k: Cannibalised }) {
  const titleId = `cannibalised-${k.keywordId}`;
  return (
    <article className="card cannibalised" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {k.term}{' '}
        <span className="muted small">
          · {k.country.toUpperCase()} · {k.device} · {k.language}
        </span>
      </h3>
      <p className="muted small">
        {plural(k.urls.length, 'site URL')} over {plural(k.checks, 'check')}; at most {k.maxUrlsAtOneCheck} at one
        check, {k.latestUrls} at the latest (
        <time dateTime={k.latestCheckedAt} title={formatDateTime(k.latestCheckedAt)}>
          {formatShortDate(k.latestCheckedAt)}
        </time>
        )
      </p>
      <div className="table-wrap">
        <table className="table table-compact table-cannibalised">
          <caption className="visually-hidden">Site URLs ranking for “{k.term}”</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col" className="numeric">
                Latest
              </th>
              <th scope="col" className="numeric">
                Best
              </th>
              <th scope="col">Positions over time</th>
            </tr>
          </thead>
          <tbody>
            {k.urls.map((u) => (
              <tr key={u.url}>
                <th scope="row" className="cell-cannibalised-url">
                  {isHttpUrl(u.url) ? (
                    <a href={u.url} className="url-text" target="_blank" rel="noopener noreferrer nofollow">
                      {u.url}
                    </a>
                  ) : (
                    <span className="url-text">{u.url}</span>
                  )}
                </th>
                <td className="numeric">{u.latestPosition ?? <span className="muted">not ranking</span>}</td>
                <td className="numeric">{u.bestPosition}</td>
                <td>
                  <ol className="url-positions">
                    {u.positions.map((p) => (
                      <li key={p.checkedAt}>
                        <time dateTime={p.checkedAt} title={formatDateTime(p.checkedAt)}>
                          {formatShortDate(p.checkedAt)}
                        </time>{' '}
                        #{p.position}
                      </li>
                    ))}
                  </ol>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}
