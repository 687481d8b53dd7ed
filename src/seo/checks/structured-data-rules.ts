import type { JsonLdBlock } from '../page/index.js';

/**
 * Required properties per schema.org type, after Google's rich-result documentation. Article has no
 * strictly required property at Google any more; `headline` is what every validator still demands.
 */
const REQUIREMENTS: Record<string, { all: string[]; anyOf?: string[] }> = {
  Product: { all: ['name'], anyOf: ['offers', 'review', 'aggregateRating'] },
  Article: { all: ['headline'] },
  NewsArticle: { all: ['headline'] },
  BlogPosting: { all: ['headline'] },
  FAQPage: { all: ['mainEntity'] },
  Review: { all: ['author', 'itemReviewed', 'reviewRating'] },
  BreadcrumbList: { all: ['itemListElement'] },
};

/** Entities examined per page; a page with more is not worth the time. */
const MAX_ENTITIES = 200;

export interface StructuredDataProblem {
  type: string;
  missing: string[];
}

export interface StructuredDataFindings {
  /** Entities of a type with requirements. */
  checked: number;
  problems: StructuredDataProblem[];
}

/** Top-level entities and `@graph` members whose type has required properties, checked. */
export function checkStructuredData(blocks: readonly JsonLdBlock[]): StructuredDataFindings {
  const findings: StructuredDataFindings = { checked: 0, problems: [] };
  forEachEntity(blocks, (node) => {
    for (const type of typesOf(node)) {
      const rule = REQUIREMENTS[type];
      if (!rule) continue;
      findings.checked++;
      const missing = rule.all.filter((property) => !present(node[property]));
      if (rule.anyOf && !rule.anyOf.some((property) => present(node[property])))
        missing.push(`one of ${rule.anyOf.join('/')}`);
      if (type === 'FAQPage' && missing.length === 0) missing.push(...faqProblems(node.mainEntity));
      if (type === 'BreadcrumbList' && missing.length === 0) missing.push(...breadcrumbProblems(node.itemListElement));
      if (missing.length > 0) findings.problems.push({ type, missing });
    }
  });
  return findings;
}

/** The schema.org types of the page's top-level entities and `@graph` members, each once, in document order. */
export function structuredDataTypes(blocks: readonly JsonLdBlock[]): string[] {
  const types = new Set<string>();
  forEachEntity(blocks, (node) => {
    for (const type of typesOf(node)) types.add(type);
  });
  return [...types];
}

/** Top-level entities and `@graph` members of the parsed blocks, at most MAX_ENTITIES. */
function forEachEntity(blocks: readonly JsonLdBlock[], visit: (node: Record<string, unknown>) => void): void {
  let seen = 0;
  const see = (node: unknown): void => {
    if (seen >= MAX_ENTITIES || !isObject(node)) return;
    seen++;
    visit(node);
  };
  for (const block of blocks) {
    if (!block.ok) continue;
    const roots = Array.isArray(block.value) ? block.value : [block.value];
    for (const root of roots) {
      if (isObject(root) && Array.isArray(root['@graph'])) {
        if (root['@type'] !== undefined) see(root);
        for (const member of root['@graph']) see(member);
      } else {
        see(root);
      }
    }
  }
}

function faqProblems(mainEntity: unknown): string[] {
  const questions = Array.isArray(mainEntity) ? mainEntity : [mainEntity];
  const missing: string[] = [];
  questions.forEach((question, index) => {
    if (!isObject(question)) return;
    if (!present(question.name)) missing.push(`mainEntity[${index}].name`);
    const answer = question.acceptedAnswer;
    const first = Array.isArray(answer) ? answer[0] : answer;
    if (!isObject(first) || !present(first.text)) missing.push(`mainEntity[${index}].acceptedAnswer.text`);
  });
  return missing.slice(0, 5);
}

function breadcrumbProblems(items: unknown): string[] {
  const list = Array.isArray(items) ? items : [items];
  const missing: string[] = [];
  list.forEach((item, index) => {
    if (!isObject(item)) return;
    if (!present(item.position)) missing.push(`itemListElement[${index}].position`);
    const named = present(item.name) || (isObject(item.item) && present(item.item.name));
    if (!named) missing.push(`itemListElement[${index}].name`);
    // Google: `item` may only be omitted on the last crumb (the current page).
    if (index < list.length - 1 && !present(item.item)) missing.push(`itemListElement[${index}].item`);
  });
  return missing.slice(0, 5);
}

function typesOf(node: Record<string, unknown>): string[] {
  const raw = node['@type'];
  const list = Array.isArray(raw) ? raw : [raw];
  return list
    .filter((type): type is string => typeof type === 'string')
    .map((type) => type.replace(/^https?:\/\/schema\.org\//i, ''));
}

function present(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
