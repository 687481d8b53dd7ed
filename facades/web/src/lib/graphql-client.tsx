import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Provider } from 'urql';
import type { Client } from '@urql/core';
import { createGraphQLClient } from './urql';

const ResetContext = createContext<() => void>(() => undefined);

let current = createGraphQLClient();

/** The client the pages use, for route loaders that start a page's query while its code loads. */
export const currentGraphQLClient = (): Client => current;

/** The urql client of the signed-in organization; sign-out and a switch of organization start a fresh one. */
export function GraphQLProvider({ children }: { children: ReactNode }) {
  const [client, setClient] = useState(current);
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
