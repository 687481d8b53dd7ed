import { useState, type ReactNode } from 'react';
import { LINK_POSITIONS } from './search-params';
import { useQuery } from 'urql';
import { Button } from '../../components/button';
import { SelectField } from '../../components/select-field';
import { ErrorMessage, Loading } from '../../components/status';
import { AuditPageLinksDocument, type AuditLinkRowFragment, type LinkPosition } from '../../gql/graphql';
import { problemOf } from '../../lib/api-problem';
import { formatNumber, plural } from '../../lib/format';
import { type PageScope } from '../../components/page-link';
import { TableWrap } from '../../components/table-wrap';
import { UrlText } from './page-view-sections';

/** Where a link sits on the linking page, as the table names it. */
const POSITION_LABELS: Record<LinkPosition, string> = {
  HEADER: 'Header',
  NAVIGATION: 'Navigation',
  CONTENT: 'Content',
  ASIDE: 'Aside',
  FOOTER: 'Footer',
};

const POSITION_OPTIONS = [
  { id: 'ALL', label: 'All positions' },
  ...LINK_POSITIONS.map((p) => ({ id: p, label: POSITION_LABELS[p] })),
];

/** A row of the links table across its six columns (loading, errors, none, "load more"). */
export function WholeRow({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <tr>
      <td colSpan={6} className={className}>
        {children}
      </td>
    </tr>
  );
}

/**
 * One page of inlinks or outlinks; the last one loaded says how many of all are shown ("Showing 50 of 1,204 linking
 * pages", the count the page's facts give) and offers the next.
 */
export function LinkPage({
  scope,
  url,
  direction,
  after,
  position,
  shown = 0,
}: {
  scope: PageScope;
  url: string;
  direction: 'in' | 'out';
  after: string | null;
  position: LinkPosition | null;
  /** Rows the pages before this one show. */
  shown?: number;
}) {
  const [{ data, fetching, error }] = useQuery({
    query: AuditPageLinksDocument,
    variables: {
      projectId: scope.projectId,
      auditId: scope.auditId,
      url,
      in: direction === 'in',
      out: direction === 'out',
      inAfter: direction === 'in' ? after : null,
      outAfter: direction === 'out' ? after : null,
      position,
    },
  });
  const [next, setNext] = useState<string | null>(null);
  const connection = direction === 'in' ? data?.audit.page.inlinks : data?.audit.page.outlinks;
  if (fetching && !data)
    return (
      <WholeRow>
        <Loading label="Loading links…" />
      </WholeRow>
    );
  if (!connection)
    return (
      <WholeRow>
        <ErrorMessage problem={problemOf(error)} title="The links could not be loaded" />
      </WholeRow>
    );
  if (after === null && connection.nodes.length === 0)
    return (
      <WholeRow className="muted">
        {position !== null
          ? `No ${direction === 'in' ? 'inlinks' : 'outlinks'} from the ${POSITION_LABELS[position].toLowerCase()}.`
          : direction === 'in'
            ? 'No crawled page links here.'
            : 'No followable links on this page.'}
      </WholeRow>
    );
  return (
    <>
      {connection.nodes.map((link) => (
        <LinkRow key={link.id} link={link} scope={scope} direction={direction} />
      ))}
      {next ? (
        <LinkPage
          scope={scope}
          url={url}
          direction={direction}
          after={next}
          position={position}
          shown={shown + connection.nodes.length}
        />
      ) : (
        connection.pageInfo.hasNextPage && (
          <WholeRow>
            <span className="muted">
              Showing {formatNumber(shown + connection.nodes.length)} of{' '}
              {plural(connection.totalCount, direction === 'in' ? 'linking page' : 'target')}
            </span>{' '}
            <Button onPress={() => setNext(connection.pageInfo.endCursor)}>
              Load more {direction === 'in' ? 'inlinks' : 'outlinks'}
            </Button>
          </WholeRow>
        )
      )}
    </>
  );
}

export function LinkRow({
  link,
  scope,
  direction,
}: {
  link: AuditLinkRowFragment;
  scope: PageScope;
  direction: 'in' | 'out';
}) {
  const other = direction === 'in' ? link.sourceUrl : link.targetUrl;
  return (
    <tr>
      <td className="cell-url">
        <UrlText scope={scope} url={other} />
        {link.otherTitle && <span className="muted small block">{link.otherTitle}</span>}
      </td>
      <td>{link.anchor || <span className="muted">No anchor text</span>}</td>
      <td className="numeric">{formatNumber(link.linkCount)}</td>
      <td>
        {link.positions.length ? (
          link.positions.map((p) => POSITION_LABELS[p]).join(', ')
        ) : (
          <span className="muted">Not recorded</span>
        )}
      </td>
      <td>{link.rel ?? <span className="muted">—</span>}</td>
      <td className="numeric">{link.otherStatus ?? (link.otherCrawled ? 'No response' : 'Not crawled')}</td>
    </tr>
  );
}

/** A page's inlinks or outlinks; the position filter is the page's (kept in its URL: `inpos`, `outpos`). */
export function Links({
  scope,
  url,
  direction,
  position,
  onPosition,
}: {
  scope: PageScope;
  url: string;
  direction: 'in' | 'out';
  position: LinkPosition | null;
  onPosition: (position: LinkPosition | null) => void;
}) {
  const heading = direction === 'in' ? 'Inlinks: pages that link here' : 'Outlinks: links on this page';
  return (
    <div className="card">
      <h2>{heading}</h2>
      <div className="filters">
        <SelectField
          id={`${direction}links-position`}
          label={direction === 'in' ? 'Inlinks from' : 'Outlinks in'}
          options={POSITION_OPTIONS}
          value={position ?? 'ALL'}
          onChange={(key) => onPosition(key === 'ALL' ? null : (key as LinkPosition))}
        />
      </div>
      {
        <TableWrap label={heading}>
          <table className="table table-links">
            <caption className="visually-hidden">{heading}</caption>
            <thead>
              <tr>
                <th scope="col">{direction === 'in' ? 'Linking page' : 'Target'}</th>
                <th scope="col">Anchor text (first link)</th>
                <th scope="col" className="numeric">
                  Links
                </th>
                <th scope="col">Position</th>
                <th scope="col">Rel</th>
                <th scope="col" className="numeric">
                  {direction === 'in' ? 'Its status' : 'Target status'}
                </th>
              </tr>
            </thead>
            <tbody>
              <LinkPage
                key={position ?? 'ALL'}
                scope={scope}
                url={url}
                direction={direction}
                after={null}
                position={position}
              />
            </tbody>
          </table>
        </TableWrap>
      }
    </div>
  );
}
