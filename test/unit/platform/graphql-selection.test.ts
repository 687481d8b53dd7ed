import { describe, expect, it } from 'vitest';
import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { selectedFields } from '../../../src/platform/graphql-selection.js';

const selectsField = (info: Parameters<typeof selectedFields>[0], name: string) => selectedFields(info).has(name);

/** The resolve info of the operation's first root field, as an executor hands it to the resolver. */
function infoOf(source: string) {
  const document = parse(source);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const fragments = Object.fromEntries(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  return { fieldNodes: [operation.selectionSet.selections[0] as FieldNode], fragments };
}

describe('selectsField', () => {
  it('finds a child field directly, under an alias, in inline and named fragments (also nested ones)', () => {
    expect(selectsField(infoOf('{ projects { id counts { audits } } }'), 'counts')).toBe(true);
    expect(selectsField(infoOf('{ projects { id _count: counts { audits } } }'), 'counts')).toBe(true);
    expect(selectsField(infoOf('{ projects { id ... on Project { counts { audits } } } }'), 'counts')).toBe(true);
    expect(
      selectsField(
        infoOf(
          'query { projects { ...A } } fragment A on Project { id ...B } fragment B on Project { counts { audits } }',
        ),
        'counts',
      ),
    ).toBe(true);
  });

  it('is false when the field is absent, only nested deeper, or its name is only an alias', () => {
    expect(selectsField(infoOf('{ projects { id name } }'), 'counts')).toBe(false);
    expect(selectsField(infoOf('{ projects { settings { counts } } }'), 'counts')).toBe(false);
    expect(selectsField(infoOf('{ projects { counts: name } }'), 'counts')).toBe(false);
  });

  it('terminates on fragments that spread each other', () => {
    expect(
      selectsField(
        infoOf('query { projects { ...A } } fragment A on Project { ...B } fragment B on Project { ...A id }'),
        'counts',
      ),
    ).toBe(false);
  });
});

describe('selectedFields', () => {
  it('walks a fieldNodes array once: the same array (as graphql-jit passes it) gets the same answer', () => {
    const info = infoOf('{ projects { id counts { audits } } }');
    const first = selectedFields(info);
    expect([...first].sort()).toEqual(['counts', 'id']);
    expect(selectedFields({ ...info })).toBe(first);
  });

  it('walks a new fieldNodes array anew (graphql-js builds one per execution), even for nodes seen before', () => {
    const info = infoOf('{ projects { id counts { audits } } }');
    const first = selectedFields(info);
    const merged = infoOf('{ projects { settings { maxPages } } }');
    const both = { fieldNodes: [...info.fieldNodes, ...merged.fieldNodes], fragments: info.fragments };
    expect(selectedFields(both)).not.toBe(first);
    expect([...selectedFields(both)].sort()).toEqual(['counts', 'id', 'settings']);
  });
});
