import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { operationDocument, operationFromFile } from '../../bench/graphql-documents.js';

const SOURCE = `
fragment A on T { a ...B }
fragment B on T { b }
fragment Unused on T { u }
query One($x: ID!) { t(id: $x) { ...A } }
query Two { t(id: "1") { b } }
`;

describe('operationDocument', () => {
  it('keeps the operation and the fragments it spreads, transitively, and nothing else', () => {
    const doc = operationDocument(SOURCE, 'One');
    expect(doc).toMatch(/^query One/);
    expect(doc).toContain('fragment A on T');
    expect(doc).toContain('fragment B on T');
    expect(doc).not.toContain('Unused');
    expect(doc).not.toContain('query Two');
    expect(operationDocument(SOURCE, 'Two')).not.toContain('fragment');
  });

  it('fails on an unknown operation or a missing fragment', () => {
    expect(() => operationDocument(SOURCE, 'Three')).toThrow(/no operation Three/);
    expect(() => operationDocument('query Q { t { ...Gone } }', 'Q')).toThrow(/fragment Gone/);
  });

  it('reads the web app documents the audit-100k bench sends', () => {
    const file = fileURLToPath(new URL('../../../facades/web/src/features/audits/audits.graphql', import.meta.url));
    const doc = operationFromFile(file, 'AuditPages');
    expect(doc).toContain('fragment AuditHeading on Audit');
    expect(doc).toContain('fragment AuditCrawlNotes on Audit');
  });
});
