import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Provider } from 'urql';
import type { Client } from '@urql/core';
import { createGraphQLClient } from './urql';
import { ssrState } from './ssr-state';

const ResetContext = createContext<() => void>(() => undefined);

// The first client starts with the results of a page the server rendered; it is made when first asked for, so that
// the server's rendering (which passes its own client) never makes one.
let current: Client | null = null;

/** The client the pages use, for route loaders that start a page's query while its code loads. */
export const currentGraphQLClient = (): Client => (current ??= createGraphQLClient(ssrState()?.results));

/**
 * The urql client of the signed-in organization; sign-out and a switch of organization start a fresh one. The server
 * passes the client of the request it renders.
 */
export function GraphQLProvider({ children, client: given }: { children: ReactNode; client?: Client }) {
  const [client, setClient] = useState(() => given ?? currentGraphQLClient());
  const reset = useCallback(() => {
    current = createGraphQLClient();
    setClient(current);
  }, []);
  return (
    <ResetContext.Provider value={reset}>
      <Provider value={client}>{children}</Provider>
    </ResetContext.Provider>
  );
}

/** Drops every cached result (another organization or user now). */
export const useResetGraphQL = (): (() => void) => useContext(ResetContext);
