import {
  Kind,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/**
 * Replaces, for the queries a client sends again and again (the web app's reads), Apollo Server's request pipeline
 * on POST /graphql: its query hash and document store, its plugin hooks and graphql-js' execute. The document is
 * parsed, validated with graphql-js' rules and the server's own, and compiled with graphql-jit (as the REST facades
 * run their operations) once; later requests run the compiled query. Proven equal by
 * test/integration/fast-path-graphql.test.ts; measured by `npm run bench -- facade` (README.md).
 *
 * It only ever runs what can safely be handed to Apollo afterwards: a query (never a mutation) whose root fields are
 * all reads of stored data. A response with any error is not sent from here: the route gives the request to Apollo,
 * which runs it again and answers it (status, error format, 503s) as always; running a read twice changes nothing.
 */
export interface GraphQLReadLaneOptions {
  schema: GraphQLSchema;
  /** The server's validation rules beyond graphql-js' (depth and cost limits). */
  validationRules: readonly ValidationRule[];
  /** Query fields that only read stored data (no outbound fetch, no rendering, no counter). */
  readFields: ReadonlySet<string>;
  /** Documents remembered, seen and prepared (default 500 each): a stream of unique queries costs no more memory. */
  capacity?: number;
  /**
   * Compile a document the first time it is asked for, rather than the second. For a caller that runs only the web
   * app's own documents (the server's rendering of signed-in pages): a fixed, small set, each run again and again.
   */
  compileOnFirstUse?: boolean;
}

/**
 * Longer documents are Apollo's (whose document store is bounded in bytes): with 500 of each kind kept, the lane holds
 * at most ~20 MB of query text. The web app's longest query is under 2,000 characters.
 */
export const READ_LANE_MAX_QUERY_LENGTH = 20_000;

/** A document this lane never runs (not a plain read, invalid, or not compilable): Apollo's. */
const APOLLO = Symbol('apollo');
type Prepared = CompiledQuery | typeof APOLLO;

/** A Map kept in least-recently-used order, bounded. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
  }
  delete(key: string): boolean {
    return this.map.delete(key);
  }
}

export class GraphQLReadLane {
  private readonly prepared: Lru<Prepared>;
  /** Documents seen once: compiled on their second request, so a query sent once never pays for compilation. */
  private readonly seen: Lru<true>;

  constructor(private readonly options: GraphQLReadLaneOptions) {
    this.prepared = new Lru(options.capacity ?? 500);
    this.seen = new Lru(options.capacity ?? 500);
  }

  /**
   * The compiled query for this request's document, or null when Apollo is to run it: the first time a document is
   * seen, and for every document that is not a valid query of stored-data reads.
   */
  operation(query: string, operationName: string | undefined): CompiledQuery | null {
    if (query.length > READ_LANE_MAX_QUERY_LENGTH) return null;
    const key = operationName === undefined ? query : `${operationName}\u0000${query}`;
    const known = this.prepared.get(key);
    if (known !== undefined) return known === APOLLO ? null : known;
    if (!this.options.compileOnFirstUse && this.seen.get(key) === undefined) {
      this.seen.set(key, true);
      return null;
    }
    this.seen.delete(key);
    const prepared = this.prepare(query, operationName);
    this.prepared.set(key, prepared);
    return prepared === APOLLO ? null : prepared;
  }

  private prepare(query: string, operationName: string | undefined): Prepared {
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch {
      return APOLLO;
    }
    const operation = selectedOperation(document, operationName);
    if (!operation || operation.operation !== 'query') return APOLLO;
    // Root fields named one by one (no fragment at the root), each a read of stored data; `__schema` and `__type`
    // are not in the list, so introspection (refused by Apollo when it is off) always goes to Apollo.
    const reads = operation.selectionSet.selections.every(
      (s) => s.kind === Kind.FIELD && (s.name.value === '__typename' || this.options.readFields.has(s.name.value)),
    );
    if (!reads) return APOLLO;
    if (validate(this.options.schema, document, [...specifiedRules, ...this.options.validationRules]).length > 0)
      return APOLLO;
    const compiled = compileQuery(this.options.schema, document, operationName);
    return isCompiledQuery(compiled) ? compiled : APOLLO;
  }
}

/** The operation graphql-js would run: the named one, or the only one when no name is given. */
function selectedOperation(document: DocumentNode, name: string | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (name === undefined) return operations.length === 1 ? operations[0] : undefined;
  return operations.find((o) => o.name?.value === name);
}
