import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * True when the field being resolved selects the child field `name` (under any alias, directly or in an
 * inline or named fragment). Lets a list resolver load what its rows' field resolvers will need in one go.
 * Directives are not evaluated: a field excluded by @skip/@include still counts as selected.
 */
export function selectsField(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, name: string): boolean {
  const visited = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): boolean => {
    if (!set) return false;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === name) return true;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (visit(selection.selectionSet)) return true;
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        if (visit(info.fragments[selection.name.value]?.selectionSet)) return true;
      }
    }
    return false;
  };
  return info.fieldNodes.some((node) => visit(node.selectionSet));
}
