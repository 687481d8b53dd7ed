/**
 * The check catalog: each check code's rule, guidance, requirements and scoring, read from src/seo/checks, and a
 * project's check settings (the catalog as its audits apply it: a check disabled, a severity overridden).
 */
export { checkDoc, checkDocs, requirementOf, scoringOf, type CheckDoc, type CheckRequirement } from './check-docs.js';
export { CheckSettingsService, type CheckSettingInput, type CheckSettingView } from './check-settings.service.js';
