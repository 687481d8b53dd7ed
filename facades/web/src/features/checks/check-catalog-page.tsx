import { useMemo } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { CheckCatalogDocument, type IssueCategory, type Severity } from '../../gql/graphql';
import { CATEGORY_LABEL, SEVERITY_LABEL } from '../../lib/labels';
import { PREFETCHED } from '../../lib/urql';
import { SelectField } from '../../components/select-field';
import { TextField } from '../../components/text-field';
import { CATALOG_CATEGORIES, CATALOG_SEVERITIES, type CatalogSearch } from './catalog-search';
import { CATALOG_HEAD, usePageHead } from './page-head';

const REQUIREMENT: Record<string, string> = {
  NONE: '',
  LAB_BROWSER: 'Needs a browser (lab measurement)',
  RENDERING_MODE: 'Needs browser rendering mode',
};

/** /checks: the public catalog of audit checks, filtered by category, severity and text (in the URL). */
export function CheckCatalogPage() {
  usePageHead(CATALOG_HEAD, '/checks');
  const search = useSearch({ strict: false }) as CatalogSearch;
  const navigate = useNavigate();
  const [{ data, error }] = useQuery({ query: CheckCatalogDocument, ...PREFETCHED });
  const all = useMemo(() => data?.checks ?? [], [data]);
  const q = (search.q ?? '').trim().toLowerCase();
  const shown = all.filter(
    (c) =>
      (!search.category || c.category === search.category) &&
      (!search.severity || c.severity === search.severity) &&
      (!q || `${c.code} ${c.title} ${c.description}`.toLowerCase().includes(q)),
  );
  const setSearch = (patch: Partial<CatalogSearch>) => {
    const next = { ...search, ...patch };
    void navigate({
      to: '/checks',
      search: Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as CatalogSearch,
      replace: true,
    });
  };

  return (
    <section className="page check-catalog" aria-labelledby="catalog-title">
      <h1 id="catalog-title">SEO check catalog</h1>
      <p className="lead">
        Every check a site audit runs ({all.length} in all): the rule, its severity and category, why it matters and how
        to fix it. A project can switch a check off or change its severity in its settings. Also as JSON:{' '}
        <a href="/api/checks">GET /api/checks</a> and the GraphQL query <code>checks</code>.
      </p>
      <div className="filters" role="search" aria-label="Filter the checks">
        <TextField
          label="Search"
          value={search.q ?? ''}
          onChange={(v) => setSearch({ q: v })}
          className="filter-group"
        />
        <SelectField
          label="Category"
          value={search.category ?? 'ALL'}
          options={[
            { id: 'ALL', label: 'All categories' },
            ...CATALOG_CATEGORIES.map((c) => ({ id: c, label: CATEGORY_LABEL[c] })),
          ]}
          onChange={(id) => setSearch({ category: id === 'ALL' ? undefined : (id as IssueCategory) })}
        />
        <SelectField
          label="Severity"
          value={search.severity ?? 'ALL'}
          options={[
            { id: 'ALL', label: 'All severities' },
            ...CATALOG_SEVERITIES.map((s) => ({ id: s, label: SEVERITY_LABEL[s] })),
          ]}
          onChange={(id) => setSearch({ severity: id === 'ALL' ? undefined : (id as Severity) })}
        />
      </div>
      {error && <p role="alert">The catalog could not be loaded: {error.message}</p>}
      <p aria-live="polite" className="muted">
        {shown.length === all.length ? `${all.length} checks` : `${shown.length} of ${all.length} checks`}
      </p>
      <ul className="check-list">
        {shown.map((c) => (
          <li key={c.code} className="check-item">
            <h2 className="check-item-title">
              <Link to="/checks/$code" params={{ code: c.code }}>
                {c.title}
              </Link>
            </h2>
            <p className="check-item-meta">
              <code>{c.code}</code>{' '}
              <span className={`badge badge-${c.severity.toLowerCase()}`}>
                {SEVERITY_LABEL[c.severity]}
                {c.banded ? ' or higher (measured)' : ''}
              </span>{' '}
              <span className="badge">{CATEGORY_LABEL[c.category]}</span>{' '}
              <span className="badge">{c.scope === 'site' ? 'Site-wide' : 'Per page'}</span>
              {REQUIREMENT[c.requires] ? <span className="badge"> {REQUIREMENT[c.requires]}</span> : null}
            </p>
            <p>{c.description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
