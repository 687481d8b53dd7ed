import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { ErrorCode } from '../../src/platform/errors.js';

/**
 * Depth and cost limits for queries sent to /graphql (the REST facades run fixed documents and skip them).
 *
 * - depth: nesting of fields, fragments expanded (`{ projects { id } }` is 2);
 * - cost: every field costs 1, times the page size of each enclosing list: the `first`/`last`/`limit`
 *   argument (a literal, else the variable's or the argument's default), or DEFAULT_LIST_SIZE for lists
 *   without one; the lists of a *Connection count once, through the connection's `first`;
 * - a field of a VALUE_TYPES type costs 1 whatever is selected in it: it is one value the server builds in memory
 *   from its parent's row and bounds itself (an evidence view holds at most 50 rows per table), not a lookup.
 *
 * Introspection (`__schema`, `__type`) is left to the introspection setting and its own bound: at most
 * INTROSPECTION_MAX_DEPTH deep and MAX_TYPE_LISTINGS nested type listings on a path, which the standard
 * introspection query meets and recursive `fields { type { fields ... } }` queries do not.
 */

/** The code of a refused query (one of ERROR_CODES; only /graphql sends it). */
export const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX' satisfies ErrorCode;
export const DEFAULT_LIST_SIZE = 10;
export const INTROSPECTION_MAX_DEPTH = 20;
export const MAX_TYPE_LISTINGS = 2;
const PAGE_ARGS = ['first', 'last', 'limit'];
/** Types whose fields are plain values of one parent row (see the cost rule above). */
export const VALUE_TYPES: ReadonlySet<string> = new Set(['EvidenceView']);
const TYPE_LISTINGS = new Set(['types', 'fields', 'inputFields', 'interfaces', 'possibleTypes']);

export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
}

/** A refused query; Apollo wraps it as a validation error, formatted with code QUERY_TOO_COMPLEX. */
export class QueryTooComplexError extends GraphQLError {
  constructor(
    message: string,
    readonly limit: 'depth' | 'cost' | 'introspection',
    readonly measured: number,
    readonly maximum: number,
    node: OperationDefinitionNode | FieldNode,
  ) {
    super(message, { nodes: [node], extensions: { code: QUERY_TOO_COMPLEX } });
  }
}

/** The QueryTooComplexError behind an error Apollo reports, if any. */
export function queryLimitErrorOf(error: unknown): QueryTooComplexError | null {
  for (let e: unknown = error, i = 0; e && i < 3; e = (e as { originalError?: unknown }).originalError, i++) {
    if (e instanceof QueryTooComplexError) return e;
  }
  return null;
}

interface Measure {
  depth: number;
  cost: number;
}
const ZERO: Measure = { depth: 0, cost: 0 };

class OperationMeter {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly fragmentMeasures = new Map<string, Measure>();
  private readonly introspectionMeasures = new Map<string, number>();
  private readonly inProgress = new Set<string>();
  readonly introspectionViolations: { node: FieldNode; message: string; measured: number; maximum: number }[] = [];

  constructor(
    private readonly context: ValidationContext,
    private readonly variableDefaults: Map<string, number>,
  ) {
    for (const def of context.getDocument().definitions)
      if (def.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(def.name.value, def);
  }

  measure(selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined): Measure {
    let depth = 0;
    let cost = 0;
    for (const selection of selectionSet.selections) {
      let m: Measure;
      if (selection.kind === Kind.FIELD) m = this.field(selection, parent);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition
          ? this.context.getSchema().getType(selection.typeCondition.name.value)
          : parent;
        m = this.measure(selection.selectionSet, type ?? undefined);
      } else m = this.fragment(selection.name.value);
      depth = Math.max(depth, m.depth);
      cost += m.cost;
    }
    return { depth, cost };
  }

  private fragment(name: string): Measure {
    const known = this.fragmentMeasures.get(name);
    if (known) return known;
    const def = this.fragments.get(name);
    // Unknown fragments and cycles are reported by the standard rules.
    if (!def || this.inProgress.has(name)) return ZERO;
    this.inProgress.add(name);
    const m = this.measure(
      def.selectionSet,
      this.context.getSchema().getType(def.typeCondition.name.value) ?? undefined,
    );
    this.inProgress.delete(name);
    this.fragmentMeasures.set(name, m);
    return m;
  }

  private field(node: FieldNode, parent: GraphQLNamedType | undefined): Measure {
    const name = node.name.value;
    if (name === '__typename') return { depth: 1, cost: 0 };
    if (name === '__schema' || name === '__type') {
      if (node.selectionSet) this.introspection(node.selectionSet, 1, 0);
      return ZERO;
    }
    const def =
      parent && (isObjectType(parent) || isInterfaceType(parent))
        ? (parent.getFields()[name] as GraphQLField<unknown, unknown> | undefined)
        : undefined;
    const childType = def ? getNamedType(def.type) : undefined;
    const child = node.selectionSet ? this.measure(node.selectionSet, childType) : ZERO;
    const multiplier = def ? this.multiplier(node, def, parent as GraphQLCompositeType) : 1;
    if (childType && VALUE_TYPES.has(childType.name)) return { depth: 1 + child.depth, cost: multiplier };
    return { depth: 1 + child.depth, cost: multiplier * (1 + child.cost) };
  }

  private multiplier(node: FieldNode, def: GraphQLField<unknown, unknown>, parent: GraphQLCompositeType): number {
    for (const argName of PAGE_ARGS) {
      const argDef = def.args.find((a) => a.name === argName);
      if (!argDef) continue;
      const arg = node.arguments?.find((a) => a.name.value === argName);
      let size: number | undefined;
      if (arg?.value.kind === Kind.INT) size = Number(arg.value.value);
      else if (arg?.value.kind === Kind.VARIABLE)
        size = this.variableDefaults.get(arg.value.name.value) ?? numberOr(argDef.defaultValue);
      else if (!arg) size = numberOr(argDef.defaultValue);
      return Math.max(1, size ?? DEFAULT_LIST_SIZE);
    }
    if (!isListType(getNullableType(def.type))) return 1;
    return parent.name.endsWith('Connection') ? 1 : DEFAULT_LIST_SIZE;
  }

  /** Walks an introspection subtree; records the first path that goes too deep or lists types too often. */
  private introspection(selectionSet: SelectionSetNode, depth: number, listings: number): number {
    let deepest = depth;
    for (const selection of selectionSet.selections) {
      if (this.introspectionViolations.length) return deepest;
      if (selection.kind === Kind.FIELD) {
        const nested = listings + (TYPE_LISTINGS.has(selection.name.value) ? 1 : 0);
        if (nested > MAX_TYPE_LISTINGS) {
          this.introspectionViolations.push({
            node: selection,
            measured: nested,
            maximum: MAX_TYPE_LISTINGS,
            message:
              `Introspection query refused: "${selection.name.value}" nests type listings (types, fields, ` +
              `inputFields, interfaces, possibleTypes) ${nested} deep; at most ${MAX_TYPE_LISTINGS} are ` +
              `allowed on a path.`,
          });
          return deepest;
        }
        if (depth + 1 > INTROSPECTION_MAX_DEPTH) {
          this.introspectionViolations.push({
            node: selection,
            measured: depth + 1,
            maximum: INTROSPECTION_MAX_DEPTH,
            message: `Introspection query depth exceeds the maximum of ${INTROSPECTION_MAX_DEPTH}.`,
          });
          return deepest;
        }
        deepest = Math.max(
          deepest,
          selection.selectionSet ? this.introspection(selection.selectionSet, depth + 1, nested) : depth + 1,
        );
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, this.introspection(selection.selectionSet, depth, listings));
      } else {
        const name = selection.name.value;
        const key = `${name}:${depth}:${listings}`;
        const known = this.introspectionMeasures.get(key);
        if (known !== undefined) {
          deepest = Math.max(deepest, known);
          continue;
        }
        const def = this.fragments.get(name);
        if (!def || this.inProgress.has(name)) continue;
        this.inProgress.add(name);
        const d = this.introspection(def.selectionSet, depth, listings);
        this.inProgress.delete(name);
        this.introspectionMeasures.set(key, d);
        deepest = Math.max(deepest, d);
      }
    }
    return deepest;
  }
}

const numberOr = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function variableDefaults(operation: OperationDefinitionNode): Map<string, number> {
  const defaults = new Map<string, number>();
  for (const v of operation.variableDefinitions ?? []) {
    if (v.defaultValue?.kind === Kind.INT) defaults.set(v.variable.name.value, Number(v.defaultValue.value));
  }
  return defaults;
}

/** The schema's root type for the operation's kind (query, mutation, subscription); null or undefined without one. */
function rootTypeOf(schema: GraphQLSchema, operation: OperationDefinitionNode) {
  if (operation.operation === 'query') return schema.getQueryType();
  return operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
}

/**
 * An operation of a kind the schema has no root type for (a subscription: this API has none) is a validation error,
 * not an execution that fails inside GraphQL as an internal error.
 */
export const knownOperationTypeRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(operation) {
    if (!rootTypeOf(context.getSchema(), operation))
      context.reportError(
        new GraphQLError(`This API has no ${operation.operation} operations: send a query or a mutation.`, {
          nodes: operation,
        }),
      );
  },
});

/** Depth, cost and introspection bounds, measured per operation of the document. */
export function queryLimitsRule(limits: QueryLimits): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const root = rootTypeOf(context.getSchema(), operation);
      const meter = new OperationMeter(context, variableDefaults(operation));
      const { depth, cost } = meter.measure(operation.selectionSet, root && isCompositeType(root) ? root : undefined);
      for (const v of meter.introspectionViolations)
        context.reportError(new QueryTooComplexError(v.message, 'introspection', v.measured, v.maximum, v.node));
      if (depth > limits.maxDepth) {
        context.reportError(
          new QueryTooComplexError(
            `Query depth ${depth} exceeds the maximum of ${limits.maxDepth} (GRAPHQL_MAX_DEPTH). Select ` +
              `fewer nested levels or split the query.`,
            'depth',
            depth,
            limits.maxDepth,
            operation,
          ),
        );
      }
      if (cost > limits.maxCost) {
        context.reportError(
          new QueryTooComplexError(
            `Query cost ${cost} exceeds the maximum of ${limits.maxCost} (GRAPHQL_MAX_COST). Each field ` +
              `costs 1, times the page size of every enclosing list ` +
              `(first/limit, or ${DEFAULT_LIST_SIZE} for lists without one): request smaller pages or fewer fields.`,
            'cost',
            cost,
            limits.maxCost,
            operation,
          ),
        );
      }
      return false;
    },
  });
}
