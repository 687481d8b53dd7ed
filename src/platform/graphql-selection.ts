import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

type SelectionInfo = Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>;

/**
 * The names of the child fields the field being resolved selects (under any alias, directly or in an inline
 * or named fragment). Lets a list resolver load, in one go, what its rows' fields will need. Directives are
 * not evaluated: a field excluded by @skip/@include still counts as selected.
 */
export function selectedFields(info: SelectionInfo): Set<string> {
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

