import { CHECK_DEFINITIONS } from './check-definitions.js';

/**
 * Checks that judge an element another check finds missing: a title's length needs a title, an Open Graph tag's
 * completeness needs Open Graph tags. When the element goes, the dependent check no longer applies to the page; its
 * issue vanishes, and that is not a fix (issue 48: a page that lost its title had its "title too short" counted as
 * fixed). The comparison counts such an occurrence as not checked (src/comparison).
 *
 * Each entry: the dependent code, and the code that reports its element missing on the same URL (the definition's
 * `requires`).
 */
export const CHECK_PREREQUISITES: Readonly<Record<string, string>> = Object.fromEntries(
  CHECK_DEFINITIONS.flatMap((check) => ('requires' in check && check.requires ? [[check.code, check.requires]] : [])),
);
