import type { JsonLdBlock } from '../page/index.js';

/**
 * Structured data rules, after Google's rich-result documentation and schema.org. Each rule has one code:
 * - META_JSONLD_REQUIRED_MISSING: the properties without which an entity of these types means nothing (below);
 * - META_JSONLD_NO_CONTEXT / _TYPE_MISSING: JSON-LD that processors cannot read as schema.org;
 * - META_JSONLD_ORGANIZATION_INCOMPLETE, _ARTICLE_INCOMPLETE, _PRODUCT_NO_OFFER, _BREADCRUMB_INVALID, _FAQ_INVALID,
 *   _DATE_INVALID: the rich-result rules of one type (or one property) each.
 * Only top-level entities and `@graph` members are judged (what the rich-result tests report first), at most
 * MAX_ENTITIES per page.
 */
const REQUIREMENTS: Record<string, readonly string[]> = {
  Product: ['name'],
  FAQPage: ['mainEntity'],
  Review: ['author', 'itemReviewed', 'reviewRating'],
  BreadcrumbList: ['itemListElement'],
};

/** Organization and its common subtypes: Google's Organization markup (name and url). */
const ORGANIZATION_TYPES = new Set([
  'Organization',
  'Corporation',
  'NGO',
  'OnlineStore',
  'OnlineBusiness',
  'EducationalOrganization',
  'NewsMediaOrganization',
  'GovernmentOrganization',
  'MedicalOrganization',
  'SportsOrganization',
  'Airline',
]);

/** LocalBusiness and its common subtypes: Google's local business markup requires name and address. */
const LOCAL_BUSINESS_TYPES = new Set([
  'LocalBusiness',
  'Store',
  'Restaurant',
  'FoodEstablishment',
  'ProfessionalService',
  'MedicalBusiness',
  'Dentist',
  'LodgingBusiness',
  'Hotel',
  'AutoDealer',
  'HomeAndConstructionBusiness',
  'LegalService',
  'FinancialService',
]);

/** Article types and the properties Google recommends for every one of them (it requires none any more). */
const ARTICLE_TYPES = new Set(['Article', 'NewsArticle', 'BlogPosting']);
const ARTICLE_PROPERTIES = ['headline', 'image', 'author', 'datePublished'] as const;

const DATE_PROPERTIES = ['datePublished', 'dateModified'] as const;

/** Entities examined per page; a page with more is not worth the time. */
const MAX_ENTITIES = 200;
/** Problems listed per finding (the evidence stays small). */
const MAX_PROBLEMS = 5;

export interface StructuredDataProblem {
  type: string;
  missing: string[];
}

/** What one rule found: how many entities it applies to, and the failing ones. */
export interface RuleFindings<P> {
  checked: number;
  problems: P[];
}

export type StructuredDataFindings = RuleFindings<StructuredDataProblem>;

/** Entity problems in words ("logo is not an absolute URL: /img/logo.png"), per entity type. */
export interface EntityProblem {
  type: string;
  problems: string[];
}

/** Top-level entities and `@graph` members whose type has required properties, checked. */
export function checkStructuredData(blocks: readonly JsonLdBlock[]): StructuredDataFindings {
  const findings: StructuredDataFindings = { checked: 0, problems: [] };
  forEachEntity(blocks, (node) => {
    for (const type of typesOf(node)) {
      const required = REQUIREMENTS[type];
      if (!required) continue;
      findings.checked++;
      const missing = required.filter((property) => !present(node[property]));
      if (missing.length > 0) findings.problems.push({ type, missing });
    }
  });
  return findings;
}

/**
 * Top-level JSON objects (each member of a top-level array is one) without a schema.org `@context`: without one,
 * JSON-LD processors cannot tell what `@type: "Product"` means, and Google ignores the block.
 */
export function contextProblems(blocks: readonly JsonLdBlock[]): RuleFindings<{ context: string | null }> {
  const findings: RuleFindings<{ context: string | null }> = { checked: 0, problems: [] };
  for (const block of blocks) {
    if (!block.ok) continue;
    for (const root of Array.isArray(block.value) ? block.value : [block.value]) {
      if (!isObject(root) || findings.checked >= MAX_ENTITIES) continue;
      findings.checked++;
      const context = root['@context'];
      if (!namesSchemaOrg(context))
        findings.problems.push({ context: context === undefined ? null : describe(context) });
    }
  }
  return findings;
}

/** Entities without `@type` (a bare `{"@id": …}` is a reference to an entity described elsewhere, not one). */
export function untypedEntities(blocks: readonly JsonLdBlock[]): RuleFindings<{ keys: string[] }> {
  const findings: RuleFindings<{ keys: string[] }> = { checked: 0, problems: [] };
  forEachEntity(blocks, (node) => {
    const keys = Object.keys(node).filter((key) => key !== '@context');
    if (keys.length === 0 || (keys.length === 1 && keys[0] === '@id')) return;
    findings.checked++;
    if (typesOf(node).length === 0) findings.problems.push({ keys: keys.slice(0, MAX_PROBLEMS) });
  });
  return findings;
}

/** Organization (name, url) and LocalBusiness (name, address) entities, and the logo of either (absolute URL). */
export function organizationProblems(blocks: readonly JsonLdBlock[]): RuleFindings<EntityProblem> {
  return entityRule(
    blocks,
    (types) => types.find((t) => LOCAL_BUSINESS_TYPES.has(t) || ORGANIZATION_TYPES.has(t)),
    (node, type) => {
      const problems: string[] = [];
      if (!present(node.name)) problems.push('name is missing');
      if (LOCAL_BUSINESS_TYPES.has(type) || typesOf(node).some((t) => LOCAL_BUSINESS_TYPES.has(t))) {
        if (!present(node.address)) problems.push('address is missing');
      } else if (!present(node.url)) {
        problems.push('url is missing');
      }
      if (present(node.logo)) {
        const logo = imageUrl(node.logo);
        if (logo === null || !isAbsoluteHttpUrl(logo))
          problems.push(`logo is not an absolute URL: ${logo === null ? describe(node.logo) : clip(logo)}`);
      }
      return problems;
    },
  );
}

/** Article, NewsArticle and BlogPosting entities without headline, image, author or datePublished. */
export function articleProblems(blocks: readonly JsonLdBlock[]): RuleFindings<StructuredDataProblem> {
  const findings: RuleFindings<StructuredDataProblem> = { checked: 0, problems: [] };
  forEachEntity(blocks, (node) => {
    const type = typesOf(node).find((t) => ARTICLE_TYPES.has(t));
    if (type === undefined) return;
    findings.checked++;
    const missing = ARTICLE_PROPERTIES.filter((property) => !present(node[property]));
    if (missing.length > 0) findings.problems.push({ type, missing });
  });
  return findings;
}

/** Products with none of offers, review and aggregateRating (Google's product snippet requires one). */
export function productsWithoutOffer(blocks: readonly JsonLdBlock[]): RuleFindings<{ name: string | null }> {
  const findings: RuleFindings<{ name: string | null }> = { checked: 0, problems: [] };
  forEachEntity(blocks, (node) => {
    if (!typesOf(node).includes('Product')) return;
    findings.checked++;
    if (!['offers', 'review', 'aggregateRating'].some((property) => present(node[property])))
      findings.problems.push({ name: typeof node.name === 'string' ? clip(node.name) : null });
  });
  return findings;
}

/**
 * BreadcrumbList items: each needs a name and an integer position, the positions run 1..n, and `item` (required on
 * every crumb but the last, Google) is an absolute URL. Lists without itemListElement are REQUIRED_MISSING's.
 */
export function breadcrumbProblems(blocks: readonly JsonLdBlock[]): RuleFindings<EntityProblem> {
  return entityRule(
    blocks,
    (types) => (types.includes('BreadcrumbList') ? 'BreadcrumbList' : undefined),
    (node) => {
      if (!present(node.itemListElement)) return null;
      const list = Array.isArray(node.itemListElement) ? node.itemListElement : [node.itemListElement];
      const problems: string[] = [];
      const positions: number[] = [];
      list.forEach((item, index) => {
        const at = `itemListElement[${index}]`;
        if (!isObject(item)) {
          problems.push(`${at} is not a ListItem`);
          return;
        }
        const named = present(item.name) || (isObject(item.item) && present(item.item.name));
        if (!named) problems.push(`${at}.name is missing`);
        const position = integerOf(item.position);
        if (position === null) problems.push(`${at}.position is missing or not an integer`);
        else positions.push(position);
        const url = itemUrl(item.item);
        if (url === null) {
          if (index < list.length - 1) problems.push(`${at}.item is missing`);
        } else if (!isAbsoluteHttpUrl(url)) {
          problems.push(`${at}.item is not an absolute URL: ${clip(url)}`);
        }
      });
      const sorted = [...positions].sort((a, b) => a - b);
      if (positions.length === list.length && sorted.some((position, index) => position !== index + 1))
        problems.push(`positions are ${sorted.join(', ')}, not 1 to ${list.length}`);
      return problems;
    },
  );
}

/** FAQPage questions without a name or an acceptedAnswer with text (no mainEntity at all: REQUIRED_MISSING). */
export function faqProblems(blocks: readonly JsonLdBlock[]): RuleFindings<EntityProblem> {
  return entityRule(
    blocks,
    (types) => (types.includes('FAQPage') ? 'FAQPage' : undefined),
    (node) => {
      if (!present(node.mainEntity)) return null;
      const questions = Array.isArray(node.mainEntity) ? node.mainEntity : [node.mainEntity];
      const problems: string[] = [];
      questions.forEach((question, index) => {
        const at = `mainEntity[${index}]`;
        if (!isObject(question)) {
          problems.push(`${at} is not a Question`);
          return;
        }
        if (!present(question.name)) problems.push(`${at}.name is missing`);
        const answer = Array.isArray(question.acceptedAnswer) ? question.acceptedAnswer[0] : question.acceptedAnswer;
        if (!isObject(answer)) problems.push(`${at}.acceptedAnswer is missing`);
        else if (!present(answer.text)) problems.push(`${at}.acceptedAnswer.text is missing`);
      });
      return problems;
    },
  );
}

/** datePublished and dateModified values that are not ISO 8601 dates or date-times. */
export function dateProblems(
  blocks: readonly JsonLdBlock[],
): RuleFindings<{ type: string; property: string; value: string }> {
  const findings: RuleFindings<{ type: string; property: string; value: string }> = { checked: 0, problems: [] };
  forEachEntity(blocks, (node) => {
    for (const property of DATE_PROPERTIES) {
      const value = node[property];
      if (value === undefined || value === null) continue;
      findings.checked++;
      if (typeof value !== 'string' || !isIsoDate(value.trim()))
        findings.problems.push({ type: typesOf(node)[0] ?? 'Thing', property, value: describe(value) });
    }
  });
  return findings;
}

/**
 * ISO 8601 in the extended form schema.org's Date and DateTime use: YYYY-MM-DD, optionally followed by
 * Thh:mm[:ss[.fff]] and a zone (Z or ±hh:mm); the calendar values must exist (month 1-12, day within the month).
 */
export function isIsoDate(value: string): boolean {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/.exec(value);
  if (!match) return false;
  const [, year, month, day, hour, minute, second, zoneHour, zoneMinute] = match;
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > new Date(Date.UTC(Number(year), m, 0)).getUTCDate()) return false;
  if (hour !== undefined && (Number(hour) > 24 || Number(minute) > 59 || Number(second ?? 0) > 60)) return false;
  return zoneHour === undefined || (Number(zoneHour) <= 14 && Number(zoneMinute) <= 59);
}

/** The schema.org types of the page's top-level entities and `@graph` members, each once, in document order. */
export function structuredDataTypes(blocks: readonly JsonLdBlock[]): string[] {
  const types = new Set<string>();
  forEachEntity(blocks, (node) => {
    for (const type of typesOf(node)) types.add(type);
  });
  return [...types];
}

/** Runs `judge` on each entity whose types `select` picks; a null verdict means the rule does not apply to it. */
function entityRule(
  blocks: readonly JsonLdBlock[],
  select: (types: string[]) => string | undefined,
  judge: (node: Record<string, unknown>, type: string) => string[] | null,
): RuleFindings<EntityProblem> {
  const findings: RuleFindings<EntityProblem> = { checked: 0, problems: [] };
  forEachEntity(blocks, (node) => {
    const type = select(typesOf(node));
    if (type === undefined) return;
    const problems = judge(node, type);
    if (problems === null) return;
    findings.checked++;
    if (problems.length > 0) findings.problems.push({ type, problems: problems.slice(0, MAX_PROBLEMS) });
  });
  return findings;
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

/** A `@context` naming schema.org: the IRI (http or https, with or without a slash), an `@vocab`, or a list of them. */
function namesSchemaOrg(context: unknown): boolean {
  if (typeof context === 'string') return /^https?:\/\/schema\.org\/?$/i.test(context.trim());
  if (Array.isArray(context)) return context.some(namesSchemaOrg);
  if (isObject(context)) return typeof context['@vocab'] === 'string' && namesSchemaOrg(context['@vocab']);
  return false;
}

function typesOf(node: Record<string, unknown>): string[] {
  const raw = node['@type'];
  const list = Array.isArray(raw) ? raw : [raw];
  return list
    .filter((type): type is string => typeof type === 'string' && type.trim() !== '')
    .map((type) => type.trim().replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, ''));
}

/** The URL of an image value: a string, or an ImageObject's url / contentUrl (the first of a list). */
function imageUrl(value: unknown): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string') return first.trim();
  if (isObject(first)) {
    const url = first.url ?? first.contentUrl ?? first['@id'];
    return typeof url === 'string' ? url.trim() : null;
  }
  return null;
}

/** A breadcrumb's `item`: a URL string, or a Thing with `@id` or `url`. */
function itemUrl(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (isObject(value)) {
    const url = value['@id'] ?? value.url;
    return typeof url === 'string' && url.trim() !== '' ? url.trim() : null;
  }
  return null;
}

function integerOf(value: unknown): number | null {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : null;
}

function isAbsoluteHttpUrl(value: string): boolean {
  return /^https?:\/\/[^/\s]/i.test(value);
}

function describe(value: unknown): string {
  return clip(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
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
