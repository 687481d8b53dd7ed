import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebBundle } from '../support/web-bundle.js';

const KB = 1024;
const bundle = new WebBundle();
const SOURCE = join(import.meta.dirname, '../../facades/web/src');
/** Pages anyone can open (their own, lighter budgets above) and the explorer (GraphiQL and monaco, on its own). */
const NOT_SIGNED_IN = /^features\/(landing|auth|tools|explorer)\/|\/(forgot|reset)-password-page\.tsx$/;
/** Every signed-in page of the app: each `*-page.tsx` under features/, so that a new one is held to the budget. */
const SIGNED_IN_PAGES = readdirSync(join(SOURCE, 'features'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('-page.tsx'))
  .map((file) => `features/${file.split(sep).join('/')}`)
  .filter((page) => !NOT_SIGNED_IN.test(page))
  .sort();

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
    expect(SIGNED_IN_PAGES).toEqual(
      expect.arrayContaining([
        'features/keywords/keywords-page.tsx',
        'features/competitors/competitors-page.tsx',
        'features/technical/technical-page.tsx',
        'features/reports/report-page.tsx',
      ]),
    );
    for (const page of SIGNED_IN_PAGES) {
      const weight = bundle.weight(['features/shell/app-header.tsx', page]);
      expect(weight.js, page).toBeLessThanOrEqual(350 * KB);
      expect(weight.files.join(' '), page).not.toMatch(/monaco|graphiql|\/explorer-page-/i);
    }
    expect(bundle.weight(['features/explorer/explorer-page.tsx']).files.join(' ')).toMatch(/\/explorer-page-/);
  });
});
