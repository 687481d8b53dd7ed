import { useState } from 'react';
import { useClient, type Client, type OperationResult } from 'urql';
import { Button } from './button';
import { ErrorMessage } from './status';
import { ExportFileDocument, type ExportFileQuery, type ExportFormat, type ExportKind } from '../gql/graphql';
import { problemOf, type ApiProblem } from '../lib/api-problem';
import { formatNumber } from '../lib/format';
import { saveFile } from './save-file';

export type ExportKindName = 'issues' | 'pages' | 'keywords';

const KIND: Record<ExportKindName, { value: ExportKind; label: string }> = {
  issues: { value: 'ISSUES', label: 'issues' },
  pages: { value: 'PAGES', label: 'crawled pages' },
  keywords: { value: 'KEYWORDS', label: 'keywords' },
};

const FORMATS: { value: ExportFormat; label: string }[] = [
  { value: 'CSV', label: 'CSV' },
  { value: 'JSON', label: 'JSON' },
];

type ExportFile = { filename: string; contentType: string; parts: string[]; rows: number } | { problem: ApiProblem };

/** Every piece of an export, in order (each piece is one request to /graphql). */
async function fetchExport(
  client: Client,
  vars: { projectId: string; kind: ExportKind; format: ExportFormat; auditId: string | null },
  onProgress: (rows: number) => void,
): Promise<ExportFile> {
  const parts: string[] = [];
  let rows = 0;
  let after: string | null = null;
  let filename = '';
  let contentType = '';
  do {
    const result: OperationResult<ExportFileQuery> = await client
      .query(ExportFileDocument, { ...vars, after }, { requestPolicy: 'network-only' })
      .toPromise();
    if (!result.data)
      return {
        problem: problemOf(result.error) ?? { message: 'No answer', code: null, fields: {}, retryAfterSeconds: null },
      };
    const piece = result.data.exportFile;
    if (!parts.length) ({ filename, contentType } = piece);
    parts.push(piece.content);
    rows += piece.rows;
    after = piece.nextCursor;
    if (after) onProgress(rows);
  } while (after);
  return { filename, contentType, parts, rows };
}

/**
 * CSV and JSON downloads of a project's issues or crawled pages (of `auditId`, else the latest completed audit) or
 * its keywords. The file is asked for over GraphQL in pieces (exportFile, with the session: the app's own
 * budget) and saved from the page as one file; the server builds every row.
 */
export function ExportButtons({
  projectId,
  kind,
  auditId,
}: {
  projectId: string;
  kind: ExportKindName;
  auditId?: string;
}) {
  const client = useClient();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const { value, label } = KIND[kind];

  const download = async (format: ExportFormat) => {
    setBusy(format);
    setProblem(null);
    setStatus(`Preparing the ${label} ${format} file…`);
    try {
      const file = await fetchExport(client, { projectId, kind: value, format, auditId: auditId ?? null }, (rows) =>
        setStatus(`Preparing the ${label} ${format} file… ${formatNumber(rows)} rows`),
      );
      if ('problem' in file) {
        setProblem(file.problem);
        setStatus('');
        return;
      }
      saveFile(file.parts, file.contentType, file.filename);
      setStatus(`Downloaded ${file.filename} (${formatNumber(file.rows)} ${file.rows === 1 ? 'row' : 'rows'}).`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="export-buttons">
      <div className="export-buttons-row" role="group" aria-label={`Export ${label}`}>
        <span className="muted small" aria-hidden="true">
          Export
        </span>
        {FORMATS.map((f) => (
          <Button
            key={f.value}
            onPress={() => void download(f.value)}
            isDisabled={busy !== null}
            aria-label={`Download ${label} as ${f.label}`}
          >
            {busy === f.value ? `${f.label}…` : f.label}
          </Button>
        ))}
      </div>
      <p className="muted small export-status" role="status" aria-live="polite">
        {status}
      </p>
      <ErrorMessage problem={problem} title="The export failed" />
    </div>
  );
}
