import type { ESLint } from 'eslint';

/** Types of eslint-web-features-rule.js, for its test. */
export declare const webFeaturesPlugin: ESLint.Plugin;
export declare function webFeatureViolation(fromFile: string, spec: string): string | null;
