import { readFileSync } from 'node:fs';
import { Kind, parse, print, visit, type DefinitionNode, type FragmentDefinitionNode } from 'graphql';

/**
 * One operation of a .graphql file with every fragment it spreads (transitively), as one document: a bench then
 * sends exactly what the web app sends, and follows the app's documents when they change.
 */
export function operationDocument(source: string, operationName: string): string {
  const definitions = parse(source).definitions;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operation = definitions.find(
    (d): d is DefinitionNode & { kind: Kind.OPERATION_DEFINITION } =>
      d.kind === Kind.OPERATION_DEFINITION && d.name?.value === operationName,
  );
  if (!operation) throw new Error(`no operation ${operationName} in the document`);
  const needed = new Set<string>();
  const collect = (node: DefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (needed.has(name)) return;
        const fragment = fragments.get(name);
        if (!fragment) throw new Error(`fragment ${name} (spread by ${operationName}) is not in the document`);
        needed.add(name);
        collect(fragment);
      },
    });
  collect(operation);
  return [operation, ...[...needed].map((name) => fragments.get(name)!)].map((d) => print(d)).join('\n\n');
}

/** operationDocument of a file. */
export const operationFromFile = (path: string, operationName: string): string =>
  operationDocument(readFileSync(path, 'utf8'), operationName);
