// Lab Core Web Vitals (Chromium via playwright-core): the audit engine's LabMeter.
export {
  createLabMeter,
  type LabDevice,
  type LabMeasurement,
  type LabMeterHandle,
  type LabMeterOptions,
} from './lab-vitals.js';
export type { LabHostPolicy } from './lab-request-policy.js';

// Technical SEO history (snapshots written by the audit worker).
export { TechnicalService, MAX_TECHNICAL_DAYS } from './technical.service.js';
export { siteFactChecks, VITAL_BANDS, type SiteFactCheck, type VitalBand } from './site-fact-checks.js';
