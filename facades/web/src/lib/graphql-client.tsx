import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { Provider } from 'urql';
import { createGraphQLClient } from './urql';

const ResetContext = createContext<() => void>(() => undefined);

/** The urql client of the signed-in organization; sign-out and a switch of organization start a fresh one. */
export function GraphQLProvider({ children }: { children: ReactNode }) {
  const [client, setClient] = useState(createGraphQLClient);
  const reset = useCallback(() => setClient(createGraphQLClient()), []);
  return (
    <ResetContext.Provider value={reset}>
      <Provider value={client}>{children}</Provider>
    </ResetContext.Provider>
  );
}

/** Drops every cached result (another organization or user now). */
export const useResetGraphQL = (): (() => void) => useContext(ResetContext);
