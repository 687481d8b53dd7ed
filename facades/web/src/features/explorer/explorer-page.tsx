import { useMemo } from 'react';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import './monaco-workers';
import 'graphiql/style.css';
import './explorer.css';
import { useDocumentTitle } from '../../components/document-title';

const DEFAULT_QUERY = `# The GraphQL domain API: every screen of this web app uses it.
# Signed in, your session cookie is sent; from a script, add
# {"Authorization": "Bearer <API_KEY>"} under Headers.
# The free tools need no sign-in:
query MetaTags {
  metaTags(input: { html: "<html lang=\\"en\\"><head><title>Hello</title></head></html>" }) {
    title
    lang
    issues { code severity title }
  }
}
`;

/** Kept in memory only: GraphiQL would otherwise persist tabs (and maybe headers with a key) in localStorage. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

/** GraphiQL 5 against /graphql on this origin (same-origin fetch: the session cookie is sent). */
export function ExplorerPage() {
  useDocumentTitle('GraphQL explorer');
  const fetcher = useMemo(() => createGraphiQLFetcher({ url: '/graphql' }), []);
  const storage = useMemo(() => new MemoryStorage(), []);
  return (
    <div className="explorer">
      <h1 className="visually-hidden">GraphQL explorer</h1>
      <GraphiQL
        fetcher={fetcher}
        defaultQuery={DEFAULT_QUERY}
        storage={storage}
        shouldPersistHeaders={false}
        defaultEditorToolsVisibility={false}
      >
        <GraphiQL.Logo>GraphQL explorer</GraphiQL.Logo>
      </GraphiQL>
    </div>
  );
}
