import { useState, type FormEvent } from 'react';
import { CodeBlock } from '../../components/code-block';
import { TextField } from '../../components/text-field';
import { MetaTagsToolDocument } from '../../gql/graphql';
import { InputMode } from './input-mode';
import { SerpPreview } from './serp-preview';
import { KeyValueTable, ReportSection, ToolForm, ToolIssues, ToolLayout, useToolQuery } from './tool-layout';

const LABELS = { url: 'Page URL', html: 'HTML' };

function Fact({ name, value }: { name: string; value: string | null }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd className="break">{value ?? <span className="muted">Missing</span>}</dd>
    </div>
  );
}

export function MetaTagsToolPage() {
  const [mode, setMode] = useState<'url' | 'paste'>('url');
  const tool = useToolQuery(MetaTagsToolDocument, LABELS);
  const report = tool.data?.metaTags;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const url = String(data.get('url') ?? '').trim();
    const html = String(data.get('html') ?? '');
    void tool.run({ input: mode === 'url' ? { url } : { html, ...(url ? { url } : {}) } });
  }

  return (
    <ToolLayout
      path="/tools/meta-tags"
      title="Meta tags analyzer"
      intro={
        'The title, description, canonical, robots, Open Graph, Twitter, hreflang and structured ' +
        'data of a page, with the checks an audit runs on them.'
      }
    >
      <ToolForm onSubmit={submit} problem={tool.problem} pending={tool.pending} submitLabel="Analyze">
        <InputMode value={mode} onChange={setMode} pasteLabel="Paste HTML" />
        <TextField
          key={mode}
          name="url"
          label={mode === 'url' ? LABELS.url : 'Page URL (optional)'}
          isRequired={mode === 'url'}
          placeholder="https://example.com/page"
          description={
            mode === 'paste' ? 'Where the HTML is served from; relative links are resolved against it.' : undefined
          }
        />
        {mode === 'paste' && <TextField name="html" label={LABELS.html} isRequired multiline rows={10} />}
      </ToolForm>
      {report && (
        <div className="report" aria-live="polite">
          <ReportSection title="Issues">
            <ToolIssues issues={report.issues} />
          </ReportSection>
          <ReportSection title="Search result preview">
            <SerpPreview
              url={report.url ?? 'Page URL not given'}
              title={report.title}
              description={report.description}
            />
          </ReportSection>
          <ReportSection title="Meta tags">
            <dl className="facts facts-wide">
              <Fact name="URL" value={report.url} />
              <Fact name="Title" value={report.title} />
              <Fact name="Description" value={report.description} />
              <Fact name="Canonical" value={report.canonical} />
              <Fact name="Robots" value={report.robots} />
              <Fact name="Viewport" value={report.viewport} />
              <Fact name="Language" value={report.lang} />
              <Fact name="Charset" value={report.charset} />
            </dl>
          </ReportSection>
          <ReportSection title="Open Graph">
            <KeyValueTable caption="Open Graph properties" value={report.openGraph} empty="No og:* properties." />
          </ReportSection>
          <ReportSection title="Twitter card">
            <KeyValueTable caption="Twitter card properties" value={report.twitter} empty="No twitter:* tags." />
          </ReportSection>
          <ReportSection title="hreflang">
            {report.hreflang.length ? (
              <ul className="plain-list">
                {report.hreflang.map((h) => (
                  <li key={`${h.lang} ${h.href}`}>
                    <code>{h.lang}</code> <span className="url-text">{h.href}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No alternate language links.</p>
            )}
          </ReportSection>
          <ReportSection title="Structured data (JSON-LD)">
            {Array.isArray(report.jsonLd) && report.jsonLd.length ? (
              <CodeBlock code={JSON.stringify(report.jsonLd, null, 2)} label="JSON-LD blocks" />
            ) : (
              <p className="muted">No JSON-LD blocks.</p>
            )}
          </ReportSection>
        </div>
      )}
    </ToolLayout>
  );
}
