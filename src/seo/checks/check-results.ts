import type * as CheckTypes from './check.types.js';
import type { CheckCode as Code } from './check-catalog.js';

/**
 * The result types with their codes as the catalog's union. check.types.ts leaves the code open (a string) because
 * the check definitions import it and the catalog is derived from them; the code that runs checks and reads their
 * results (the page and site passes, the aggregator, the modules through index.ts) uses these.
 */
export type CheckResult = CheckTypes.CheckResult<Code>;
export type SiteCheckResult = CheckTypes.SiteCheckResult<Code>;
export type PageCheckResults = CheckTypes.PageCheckResults<Code>;
export type SiteCheckOutput = CheckTypes.SiteCheckOutput<Code>;
export type CheckAggregate = CheckTypes.CheckAggregate<Code>;
