import { getRouteApi } from '@tanstack/react-router';
import { AuditHeading } from './audit-heading';
import type { PageSearch } from './search-params';
import { PagesQuickFilters } from './pages-quick-filters';
import { SegmentPicker, SegmentSummary } from './segment-picker';
import { UrlTableSection } from './url-table';
import { DEFAULT_COLUMNS, tableFilter } from './url-table-view';

const route = getRouteApi('/app/projects/$projectId/audits/$auditId/pages');

/** The pages explorer: every URL of the audit in the URL table, with the quick filters above it. */
export function PagesExplorerPage() {
  const { projectId, auditId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = (patch: Partial<PageSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });

  return (
    <section className="page" aria-labelledby="audit-title">
      <UrlTableSection
        projectId={projectId}
        auditId={auditId}
        search={search}
        setSearch={setSearch}
        filter={tableFilter(search)}
        segment={search.seg ?? null}
        defaults={DEFAULT_COLUMNS}
        storage="pages"
        label="Crawled pages"
        documentTitle={{ prefix: 'Pages', fallback: 'Crawled pages' }}
        heading={(data) => (
          <AuditHeading projectId={projectId} projectName={data.project.name} audit={data.audit} view="pages" />
        )}
        quickFilters={
          <>
            <PagesQuickFilters search={search} setSearch={setSearch} />
            <SegmentPicker projectId={projectId} segment={search.seg} onChange={(seg) => setSearch({ seg })} />
            {search.seg && <SegmentSummary projectId={projectId} auditId={auditId} segmentId={search.seg} />}
          </>
        }
        emptyText={{
          title: 'No pages to show',
          filtered: 'No crawled page matches these filters.',
          none: 'This audit has no crawled pages yet.',
        }}
      />
    </section>
  );
}
