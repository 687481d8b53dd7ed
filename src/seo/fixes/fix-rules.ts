import type { CheckCode } from '../checks/index.js';
import { CHECK_DEFINITIONS } from '../checks/check-definitions.js';
import { ruleContext, type FixRule } from './fix-rule-context.js';
import { FIX_LIMITS as L, type FixInput, type FixProposal } from './fix.types.js';
import { codePointLength, cutAtWord } from './markup-text.js';

/** One rule per catalog code: each definition's `fix` (src/seo/checks/check-definitions.ts). */
export const FIX_RULES: Readonly<Record<CheckCode, FixRule>> = Object.fromEntries(
  CHECK_DEFINITIONS.map((check) => [check.code, check.fix]),
) as Record<CheckCode, FixRule>;

/** Codes whose fix reads the audit's pages that share the page's title (their definitions' `fixReads`). */
const TITLE_TWIN_CODES: ReadonlySet<string> = new Set(
  CHECK_DEFINITIONS.filter((check) => 'fixReads' in check && check.fixReads === 'titleTwins').map(
    (check) => check.code,
  ),
);

/** Whether the fix of a code reads the pages that share the page's title (FixPageContext.titleTwins). */
export function fixReadsTitleTwins(code: string): boolean {
  return TITLE_TWIN_CODES.has(code);
}

/**
 * The deterministic fix for one issue occurrence, specific to the page where the evidence and page
 * digest allow (proposed tags are drawn from the page's own text and HTML-escaped). Never throws for
 * odd evidence; the result obeys the API bounds (FIX_LIMITS).
 */
export function suggestFix(input: FixInput): FixProposal {
  const rule = Object.hasOwn(FIX_RULES, input.code) ? FIX_RULES[input.code as CheckCode] : undefined;
  if (!rule) throw new RangeError(`no fix rule for check code ${String(input.code)}`);
  return boundProposal(rule(ruleContext(input)));
}

/** Clamps a proposal to the API bounds: summary, step count and length, snippet size. */
export function boundProposal(proposal: FixProposal): FixProposal {
  const steps = proposal.steps
    .map((step) => step.trim())
    .filter((step) => step !== '')
    .slice(0, L.steps)
    .map((step) => cutAtWord(step, L.stepChars, true));
  const bounded: FixProposal = { summary: cutAtWord(proposal.summary.trim(), L.summaryChars, true), steps };
  const code = proposal.code?.trim();
  if (code) bounded.code = codePointLength(code) <= L.codeChars ? code : truncateCode(code);
  return bounded;
}

/** Long snippets are cut at a line boundary so no half tag or half config line is left. */
function truncateCode(code: string): string {
  const head = Array.from(code).slice(0, L.codeChars).join('');
  const newline = head.lastIndexOf('\n');
  return newline > 0 ? head.slice(0, newline) : head;
}
