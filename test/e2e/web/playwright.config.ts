import { defineConfig } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { SERP_FIXTURE_ENV } from './serp-fixture';
import { SLOW_LINKS_HOST } from './fixture-site';
import { MAIL_PORT } from './mail-sink';
import { RENDER_CHROMIUM } from '../../support/chromium';

/**
 * End-to-end tests of the web app in Debian's Chromium (no browser download), against the platform as
 * `npm start` runs it: migrations, the API with the built web app, and the worker processes, on the test
 * database and Redis. Tests find elements by role and label, as a person does.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3197);
const root = resolve(import.meta.dirname, '../../..');
const prefix = process.env.E2E_REDIS_PREFIX ?? `e2e-${randomBytes(4).toString('hex')}`;
process.env.E2E_REDIS_PREFIX = prefix;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // The rate-limit specs use up 127.0.0.1's allowances of anonymous requests and failed sign-ins for a minute: they
  // run after every other spec, so that none needs to wait the window out.
  projects: [
    { name: 'flows', testIgnore: 'rate-limits.spec.ts' },
    { name: 'limits', testMatch: 'rate-limits.spec.ts', dependencies: ['flows'] },
  ],
  // An SMTP server that keeps what it receives (mail-sink.ts): invitations and password resets by e-mail.
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: resolve(root, 'dist/e2e-results'),
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    viewport: { width: 1280, height: 900 },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    // The README's way: build only what changed, then run migrations, the API (serving the web app) and workers.
    command:
      `${process.execPath} --import tsx src/platform/build/incremental-build.ts all && ${process.execPath} ` +
      `dist/src/cli.js start`,
    cwd: root,
    url: `http://127.0.0.1:${E2E_PORT}/readyz`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/seo_audit_test',
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: prefix,
      // A self-hosted install: new organizations on Enterprise, so that API keys work on /api/v1.
      DEFAULT_PLAN: 'ENTERPRISE',
      // The fixture site runs on 127.0.0.1, which the SSRF policy refuses unless allowed.
      SAFE_HTTP_ALLOW: '127.0.0.1',
      // A site elsewhere (audit-progress.spec.ts), served on 127.0.0.1 under its own host name.
      SAFE_HTTP_RESOLVE: `${SLOW_LINKS_HOST}=127.0.0.1`,
      // Rank checks ask the local SearXNG fixture (serp-fixture.ts), which a spec starts when it needs positions.
      ...SERP_FIXTURE_ENV,
      // Headless Chromium for lab vitals and the client report's PDF (exports.spec.ts downloads one).
      CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Browser rendering mode's browser (rendering.spec.ts), as the README sets it up.
      RENDER_CHROMIUM_PATH: RENDER_CHROMIUM,
      AUTH_FAILURES_PER_MINUTE: '12',
      ANONYMOUS_RATE_PER_MINUTE: '10',
      // Every spec signs its users up from 127.0.0.1.
      SIGNUPS_PER_IP_PER_HOUR: '100000',
      LOG_LEVEL: 'warn',
      SMTP_URL: `smtp://e2e:e2e-mail-pass@127.0.0.1:${MAIL_PORT}`,
      MAIL_FROM: 'SEO Audit Platform <no-reply@example.test>',
      NODE_ENV: 'test',
    },
  },
});
