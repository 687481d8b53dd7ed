import { useState } from 'react';
import { useClient, type OperationResult } from 'urql';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/status';
import { saveFile } from '../../components/save-file';
import {
  UrlTableExportDocument,
  type UrlTableExportFormat,
  type UrlTableExportQuery,
  type UrlTableFilterInput,
  type UrlTableSortInput,
} from '../../gql/graphql';
import { problemOf, type ApiProblem } from '../../lib/api-problem';
import { formatNumber } from '../../lib/format';

const FORMATS: UrlTableExportFormat[] = ['CSV', 'JSON', 'XLSX'];

/** base64 (an XLSX piece) as bytes. */
function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * "Export as shown": the table's view (columns, filter, sort, check) as CSV, JSON or XLSX, asked for over GraphQL in
 * pieces (urlTableExport) and saved as one file; the server makes every row.
 */
export function ExportAsShown({
  view,
}: {
  view: {
    projectId: string;
    auditId: string;
    columns: string[];
    sort: UrlTableSortInput | null;
    filter: UrlTableFilterInput | null;
    checkCode?: string | null;
    segment?: string | null;
  };
}) {
  const client = useClient();
  const [busy, setBusy] = useState<UrlTableExportFormat | null>(null);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<ApiProblem | null>(null);

  const download = async (format: UrlTableExportFormat) => {
    setBusy(format);
    setProblem(null);
    setStatus(`Preparing the ${format} file…`);
    try {
      const parts: BlobPart[] = [];
      let after: string | null = null;
      let rows = 0;
      let file = { filename: '', contentType: '' };
      do {
        const result: OperationResult<UrlTableExportQuery> = await client
          .query(UrlTableExportDocument, { ...view, format, after }, { requestPolicy: 'network-only' })
          .toPromise();
        if (!result.data) {
          setProblem(
            problemOf(result.error) ?? { message: 'No answer', code: null, fields: {}, retryAfterSeconds: null },
          );
          setStatus('');
          return;
        }
        const piece = result.data.audit.urlTableExport;
        if (!parts.length) file = { filename: piece.filename, contentType: piece.contentType };
        parts.push(piece.encoding === 'BASE64' ? bytesOf(piece.content) : piece.content);
        rows += piece.rows;
        after = piece.nextCursor ?? null;
        if (after) setStatus(`Preparing the ${format} file… ${formatNumber(rows)} rows`);
      } while (after);
      saveFile(parts, file.contentType, file.filename);
      setStatus(`Downloaded ${file.filename} (${formatNumber(rows)} ${rows === 1 ? 'row' : 'rows'}).`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="export-buttons">
      <div className="export-buttons-row" role="group" aria-label="Export as shown">
        <span className="muted small" aria-hidden="true">
          Export as shown
        </span>
        {FORMATS.map((f) => (
          <Button
            key={f}
            onPress={() => void download(f)}
            isDisabled={busy !== null}
            aria-label={`Download the table as shown as ${f}`}
          >
            {busy === f ? `${f}…` : f}
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
