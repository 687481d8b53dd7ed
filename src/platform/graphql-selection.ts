import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

type SelectionInfo = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>;

/**
 * Walks are kept per `fieldNodes` array. graphql-jit hands a resolver the array it captured when it compiled the
 * operation, the same one on every execution, so a compiled REST operation walks its selection once; graphql-js
 * builds a new array per execution, whose entry simply goes with it. The names depend on nothing else: the
 * fragments are those of the document the nodes belong to, and directives are not evaluated.
 */
const walked = new WeakMap<readonly unknown[], ReadonlySet<string>>();

/**
 * The names of the child fields the field being resolved selects (under any alias, directly or in an inline
 * or named fragment). Lets a list resolver load, in one go, what its rows' fields will need. Directives are
 * not evaluated: a field excluded by @skip/@include still counts as selected.
 */
export function selectedFields(info: SelectionInfo): ReadonlySet<string> {
  let names = walked.get(info.fieldNodes);
  if (!names) {
    names = walk(info);
    walked.set(info.fieldNodes, names);
  }
  return names;
}

function walk(info: SelectionInfo): Set<string> {
  const names = new Set<string>();
  const visited = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): void => {
    if (!set) return;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        visit(info.fragments[selection.name.value]?.selectionSet);
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet);
  return names;
}
