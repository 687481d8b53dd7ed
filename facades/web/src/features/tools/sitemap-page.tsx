import { useState, type FormEvent } from 'react';
import { SitemapToolDocument } from '../../gql/graphql';
import { formatNumber } from '../../lib/format';
import { InputMode, UrlOrPasteField } from './input-mode';
import { ReportSection, ToolForm, ToolLayout, ValidationSummary, useToolQuery } from './tool-layout';

export function SitemapToolPage() {
  const [mode, setMode] = useState<'url' | 'paste'>('url');
  const tool = useToolQuery(SitemapToolDocument, { url: 'Sitemap URL', content: 'Sitemap XML' });
  const report = tool.data?.sitemap;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    void tool.run({
      input:
        mode === 'url' ? { url: String(data.get('url') ?? '').trim() } : { content: String(data.get('content') ?? '') },
    });
  }

  return (
    <ToolLayout
      path="/tools/sitemap"
      title="XML sitemap validator"
      intro="Validates a sitemap or sitemap index against the sitemaps.org protocol: structure, URLs, dates and limits."
    >
      <ToolForm onSubmit={submit} problem={tool.problem} pending={tool.pending} submitLabel="Validate">
        <InputMode value={mode} onChange={setMode} pasteLabel="Paste the XML" />
        <UrlOrPasteField
          mode={mode}
          url={{ label: 'Sitemap URL', placeholder: 'https://example.com/sitemap.xml' }}
          paste={{ name: 'content', label: 'Sitemap XML' }}
        />
      </ToolForm>
      {report && (
        <div className="report" aria-live="polite">
          <ValidationSummary
            valid={report.valid}
            validText="Valid sitemap"
            invalidText="This sitemap has errors"
            errors={report.errors}
            warnings={report.warnings}
            summary={`${
              report.type === 'sitemapindex' ? 'Sitemap index' : report.type === 'urlset' ? 'URL set' : 'Unknown type'
            } · ${formatNumber(report.urlCount)} ${report.type === 'sitemapindex' ? 'sitemaps' : 'URLs'}`}
          />
          {report.sitemaps && report.sitemaps.length > 0 && (
            <ReportSection title="Child sitemaps">
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Sitemap</th>
                      <th scope="col">Result</th>
                      <th scope="col" className="numeric">
                        URLs
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.sitemaps.map((s) => (
                      <tr key={s.loc}>
                        <th scope="row" className="url-text">
                          {s.loc}
                        </th>
                        <td>
                          {s.fetchError ??
                            (s.valid === null ? 'Not fetched' : s.valid ? 'Valid' : `${s.errorCount ?? 0} errors`)}
                        </td>
                        <td className="numeric">{s.urlCount ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </ReportSection>
          )}
          {report.sample.length > 0 && (
            <ReportSection title={`First ${report.sample.length} entries`}>
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Location</th>
                      <th scope="col">Last modified</th>
                      <th scope="col">Change frequency</th>
                      <th scope="col" className="numeric">
                        Priority
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.sample.map((e, i) => (
                      <tr key={i}>
                        <th scope="row" className="url-text">
                          {e.loc}
                        </th>
                        <td>{e.lastmod ?? '—'}</td>
                        <td>{e.changefreq ?? '—'}</td>
                        <td className="numeric">{e.priority ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </ReportSection>
          )}
        </div>
      )}
    </ToolLayout>
  );
}
