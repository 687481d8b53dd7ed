import { describe, expect, it } from 'vitest';
import { WebBundle } from '../support/web-bundle.js';

const KB = 1024;
const bundle = new WebBundle();

/**
 * The web app's budgets (issue 17): what a page's JavaScript weighs, gzip, from the build the global setup
 * made. Route-level code splitting keeps the landing and sign-in pages light and GraphiQL on its own route.
 */
describe('web app size budgets (gzip)', () => {
  it('landing page: initial JavaScript ≤ 150 KB', () => {
    expect(bundle.weight(['features/landing/landing-page.tsx']).js).toBeLessThanOrEqual(150 * KB);
  });

  it('sign-in and sign-up pages: initial JavaScript ≤ 150 KB', () => {
    expect(bundle.weight(['features/auth/sign-in-page.tsx']).js).toBeLessThanOrEqual(150 * KB);
  });

  it('signed-in dashboard (header, projects page and their chunks): ≤ 350 KB in total', () => {
    expect(
      bundle.weight(['features/shell/app-header.tsx', 'features/projects/dashboard-page.tsx']).js,
    ).toBeLessThanOrEqual(350 * KB);
  });

  it('every signed-in page stays within 350 KB; only the explorer loads GraphiQL and monaco', () => {
    for (const page of [
      'features/projects/project-overview-page.tsx',
      'features/audits/audit-issues-page.tsx',
      'features/audits/pages-explorer-page.tsx',
      'features/settings/api-keys-page.tsx',
    ]) {
      const weight = bundle.weight(['features/shell/app-header.tsx', page]);
      expect(weight.js, page).toBeLessThanOrEqual(350 * KB);
      expect(weight.files.join(' '), page).not.toMatch(/monaco|graphiql|\/explorer-page-/i);
    }
    expect(bundle.weight(['features/explorer/explorer-page.tsx']).files.join(' ')).toMatch(/\/explorer-page-/);
  });
});
