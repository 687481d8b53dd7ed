/** The public check catalog: each check code's rule, guidance, requirements and scoring, read from src/seo/checks. */
export { checkDoc, checkDocs, requirementOf, scoringOf, type CheckDoc, type CheckRequirement } from './check-docs.js';
