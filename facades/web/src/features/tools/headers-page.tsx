import type { FormEvent } from 'react';
import { TextField } from '../../components/text-field';
import { HeadersToolDocument } from '../../gql/graphql';
import { KeyValueTable, ReportSection, ToolForm, ToolIssues, ToolLayout, useToolQuery } from './tool-layout';

export function HeadersToolPage() {
  const tool = useToolQuery(HeadersToolDocument, { url: 'URL' });
  const report = tool.data?.httpHeaders;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void tool.run({ url: String(new FormData(event.currentTarget).get('url') ?? '').trim() });
  }

  return (
    <ToolLayout
      path="/tools/headers"
      title="HTTP headers checker"
      intro={
        "Follows a URL's redirects and checks its response headers " +
        'for caching, compression, HSTS and other security and SEO headers.'
      }
    >
      <ToolForm onSubmit={submit} problem={tool.problem} pending={tool.pending} submitLabel="Check headers">
        <TextField name="url" label="URL" isRequired placeholder="https://example.com" />
      </ToolForm>
      {report && (
        <div className="report" aria-live="polite">
          <ReportSection title="Response">
            <dl className="facts">
              <div>
                <dt>Final URL</dt>
                <dd className="url-text">{report.finalUrl}</dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>{report.status}</dd>
              </div>
              <div>
                <dt>HTTP version</dt>
                <dd>{report.httpVersion}</dd>
              </div>
              <div>
                <dt>Redirects</dt>
                <dd>{report.redirects.length}</dd>
              </div>
            </dl>
            {report.redirects.length > 0 && (
              <ol className="plain-list">
                {report.redirects.map((r, i) => (
                  <li key={i}>
                    <code>{r.status}</code> <span className="url-text">{r.url}</span>
                  </li>
                ))}
              </ol>
            )}
          </ReportSection>
          <ReportSection title="Checks">
            <ul className="checks">
              {report.checks.map((c) => (
                <li key={c.name} className={c.passed ? 'check-pass' : 'check-fail'}>
                  <span className="check-mark">{c.passed ? 'Pass' : 'Fail'}</span>
                  <span>
                    <strong>{c.name}</strong> — {c.message}
                    {c.value && (
                      <>
                        {' '}
                        <code className="break">{c.value}</code>
                      </>
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </ReportSection>
          <ReportSection title="Issues">
            <ToolIssues issues={report.issues} />
          </ReportSection>
          <ReportSection title="Headers">
            <KeyValueTable caption="Response headers" value={report.headers} />
          </ReportSection>
        </div>
      )}
    </ToolLayout>
  );
}
