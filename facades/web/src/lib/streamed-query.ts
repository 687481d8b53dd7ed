import { createContext, use, useContext } from 'react';
import { createRequest, type AnyVariables } from '@urql/core';
import { useQuery, type UseQueryArgs, type UseQueryResponse } from 'urql';

/**
 * A page's long list, streamed by the server after the rest of the page (src/entry-server.tsx). The server sends the
 * page's shell (header, title, notes) as soon as its own small query is answered, and the list, inside a Suspense
 * boundary, once the list's query is: the browser paints the page while the server is still reading and rendering the
 * list (1,000 keywords, 2,000 issues).
 *
 * The route loader starts the list's query with STREAMED among its context: the server's render does not wait for it
 * before sending the shell. The list's component reads it with useStreamedQuery inside a <Suspense>: in the browser it
 * is useQuery; on the server, while the query is in flight, it suspends on it (React's `use`), so that the boundary is
 * sent when the list is ready.
 */
export const STREAMED = { streamed: true } as const;

/** On the server: the promise that settles when the streamed query with this urql key is answered, if in flight. */
export type StreamedQueryWait = (key: number) => PromiseLike<void> | null;

export const StreamedQueries = createContext<StreamedQueryWait | null>(null);

export function useStreamedQuery<Data, Variables extends AnyVariables>(
  args: UseQueryArgs<Variables, Data>,
): UseQueryResponse<Data, Variables> {
  const wait = useContext(StreamedQueries);
  const response = useQuery(args);
  const [{ data, error }] = response;
  if (wait && data === undefined && !error) {
    const pending = wait(createRequest(args.query, args.variables).key);
    if (pending) use(pending);
  }
  return response;
}
