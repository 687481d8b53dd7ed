import { useState, type FormEvent } from 'react';
import { TextField } from '../../components/text-field';
import { RobotsToolDocument, type RobotsToolQuery } from '../../gql/graphql';
import { formatBytes } from '../../lib/format';
import { InputMode, UrlOrPasteField } from './input-mode';
import { ReportSection, ToolForm, ToolLayout, ValidationSummary, useToolQuery } from './tool-layout';

const LABELS = {
  url: 'Site or robots.txt URL',
  content: 'robots.txt',
  testUrls: 'URLs to test',
  userAgent: 'User agent',
};

type UrlTest = RobotsToolQuery['robotsTxt']['tests'][number];

/** "Allowed", "Allowed by Allow: /x (line 3)" or "Blocked by Disallow: /private (line 4)". */
function verdict(test: UrlTest): string {
  const rule = test.matchedRule;
  const by = rule ? ` by ${rule.type === 'allow' ? 'Allow' : 'Disallow'}: ${rule.path} (line ${rule.line})` : '';
  return test.allowed ? `Allowed${by}` : `Blocked${by}`;
}

export function RobotsToolPage() {
  const [mode, setMode] = useState<'url' | 'paste'>('url');
  const tool = useToolQuery(RobotsToolDocument, LABELS);
  const report = tool.data?.robotsTxt;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const testUrls = String(data.get('testUrls') ?? '')
      .split('\n')
      .map((u) => u.trim())
      .filter(Boolean);
    const userAgent = String(data.get('userAgent') ?? '').trim();
    const source =
      mode === 'url' ? { url: String(data.get('url') ?? '').trim() } : { content: String(data.get('content') ?? '') };
    void tool.run({
      input: { ...source, ...(testUrls.length ? { testUrls } : {}), ...(userAgent ? { userAgent } : {}) },
    });
  }

  return (
    <ToolLayout
      path="/tools/robots"
      title="robots.txt tester"
      intro={
        'Validates a robots.txt file against RFC 9309 and tells, for each URL ' +
        'you give, whether a crawler may fetch it and which rule decides.'
      }
    >
      <ToolForm onSubmit={submit} problem={tool.problem} pending={tool.pending} submitLabel="Test">
        <InputMode value={mode} onChange={setMode} pasteLabel="Paste the file" />
        <UrlOrPasteField
          mode={mode}
          url={{ label: LABELS.url, placeholder: 'https://example.com' }}
          paste={{ name: 'content', label: LABELS.content, placeholder: 'User-agent: *\nDisallow: /private/' }}
        />
        <TextField
          name="testUrls"
          label={LABELS.testUrls}
          multiline
          rows={4}
          description="Optional: one URL or path per line (at most 100)."
          placeholder={'/private/report.pdf\nhttps://example.com/blog/'}
        />
        <TextField
          name="userAgent"
          label={LABELS.userAgent}
          description="Optional: the crawler to test for; Googlebot-like names match their product token."
          placeholder="Googlebot"
        />
      </ToolForm>
      {report && (
        <div className="report" aria-live="polite">
          <ValidationSummary
            valid={report.valid}
            validText="Valid robots.txt"
            invalidText="This robots.txt has errors"
            errors={report.errors}
            warnings={report.warnings}
            summary={
              <>
                Source: <span className="break">{report.source}</span> · {formatBytes(report.sizeBytes)} ·{' '}
                {report.groups.length} groups
              </>
            }
          />
          {report.tests.length > 0 && (
            <ReportSection title="URL tests">
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">URL</th>
                      <th scope="col">User agent</th>
                      <th scope="col">Verdict</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.tests.map((t, i) => (
                      <tr key={i}>
                        <th scope="row" className="url-text">
                          {t.url}
                        </th>
                        <td>{t.userAgent}</td>
                        <td className={t.allowed ? 'verdict-ok' : 'verdict-bad'}>{verdict(t)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </ReportSection>
          )}
          <ReportSection title="Groups and rules">
            {report.groups.length === 0 && <p className="muted">No groups: every URL is allowed.</p>}
            {report.groups.map((g, i) => (
              <div key={i} className="robots-group">
                <h3>User-agent: {g.userAgents.join(', ')}</h3>
                {g.rules.length ? (
                  <ul className="plain-list">
                    {g.rules.map((r) => (
                      <li key={r.line}>
                        <span className="line-number">Line {r.line}</span>{' '}
                        <code>
                          {r.type === 'allow' ? 'Allow' : 'Disallow'}: {r.path}
                        </code>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="muted">No rules.</p>
                )}
              </div>
            ))}
          </ReportSection>
          <ReportSection title="Sitemaps">
            {report.sitemaps.length ? (
              <ul className="plain-list">
                {report.sitemaps.map((s) => (
                  <li key={s} className="url-text">
                    {s}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No Sitemap lines.</p>
            )}
          </ReportSection>
        </div>
      )}
    </ToolLayout>
  );
}
