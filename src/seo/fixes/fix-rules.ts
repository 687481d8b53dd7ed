import type { CheckCode } from '../checks/index.js';
import { CONTENT_FIX_RULES } from './content-fix-rules.js';
import { ruleContext, type FixRule } from './fix-rule-context.js';
import { FIX_LIMITS as L, type FixInput, type FixProposal } from './fix.types.js';
import { LINK_FIX_RULES } from './link-fix-rules.js';
import { codePointLength, cutAtWord } from './markup-text.js';
import { META_FIX_RULES } from './meta-fix-rules.js';
import { PERFORMANCE_FIX_RULES } from './performance-fix-rules.js';
import { STRUCTURED_FIX_RULES } from './structured-international-fix-rules.js';
import { RENDERING_FIX_RULES } from './rendering-fix-rules.js';
import { TECHNICAL_FIX_RULES } from './technical-fix-rules.js';

/** One rule per catalog code: the Record type makes a new code without a rule a compile error. */
export const FIX_RULES: Readonly<Record<CheckCode, FixRule>> = {
  ...META_FIX_RULES,
  ...CONTENT_FIX_RULES,
  ...LINK_FIX_RULES,
  ...TECHNICAL_FIX_RULES,
  ...PERFORMANCE_FIX_RULES,
  ...STRUCTURED_FIX_RULES,
  ...RENDERING_FIX_RULES,
};

/**
 * The deterministic fix for one issue occurrence, specific to the page where the evidence and page
 * digest allow (proposed tags are drawn from the page's own text and HTML-escaped). Never throws for
 * odd evidence; the result obeys the API bounds (FIX_LIMITS).
 */
export function suggestFix(input: FixInput): FixProposal {
  const rule = FIX_RULES[input.code];
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
