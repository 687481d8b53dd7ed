/**
 * The request-path shortcuts of this directory, each of which can be turned off so that its library call runs
 * instead (see README.md). Production runs them all; only the facade bench (`BENCH_FAST_PATHS`) and the
 * equivalence tests turn one off, to measure what it buys and to prove both paths give the same answer.
 */
export interface FastPathSwitches {
  /** session-principal.ts instead of better-auth's getSession for the sessions getSession would simply return. */
  sessionCookie: boolean;
  /** graphql-read-lane.ts instead of Apollo Server's pipeline for repeated POST /graphql reads of stored data. */
  graphqlReadLane: boolean;
}

export const ALL_FAST_PATHS: Readonly<FastPathSwitches> = Object.freeze({
  sessionCookie: true,
  graphqlReadLane: true,
});

export const fastPaths = (overrides: Partial<FastPathSwitches> = {}): FastPathSwitches => ({
  ...ALL_FAST_PATHS,
  ...overrides,
});
