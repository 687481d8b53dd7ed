import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_QUOTAS, loadConfig } from '../../../src/platform/config.js';

describe('config', () => {
  it('works with no environment at all, using the local defaults', () => {
    const c = loadConfig({});
    expect(c.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/seo_audit');
    expect(c.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(c.baseUrl).toBe('http://127.0.0.1:3000');
    expect(c.DEFAULT_PLAN).toBe('FREE');
    expect(c.quotas).toEqual(DEFAULT_QUOTAS);
    expect(c.usingDevSecret).toBe(true);
    expect(c.AUDIT_PARSE_THREADS).toBe(1);
    expect(loadConfig({ AUDIT_PARSE_THREADS: '0' }).AUDIT_PARSE_THREADS).toBe(0);
    expect(c.COMPETITOR_CONCURRENCY).toBe(2);
    expect(loadConfig({ COMPETITOR_CONCURRENCY: '5' }).COMPETITOR_CONCURRENCY).toBe(5);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ DEFAULT_PLAN: 'GOLD' }, 'DEFAULT_PLAN'],
    [{ NODE_ENV: 'production' }, 'BETTER_AUTH_SECRET'],
    [{ BETTER_AUTH_SECRET: 'short' }, 'BETTER_AUTH_SECRET'],
    [{ PLAN_QUOTAS: '{nope' }, 'PLAN_QUOTAS'],
    [{ PLAN_QUOTAS: '{"PRO":{"projects":-1}}' }, 'PLAN_QUOTAS.PRO.projects'],
    [{ AUDIT_PARSE_THREADS: '-1' }, 'AUDIT_PARSE_THREADS'],
    [{ AUDIT_PARSE_THREADS: 'two' }, 'AUDIT_PARSE_THREADS'],
    [{ COMPETITOR_CONCURRENCY: '0' }, 'COMPETITOR_CONCURRENCY'],
    [{ COMPETITOR_CONCURRENCY: '1.5' }, 'COMPETITOR_CONCURRENCY'],
    [{ COMPETITOR_CONCURRENCY: '51' }, 'COMPETITOR_CONCURRENCY'],
  ])('a bad variable fails fast naming it: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:[\\s\\S]*${name.replace(/\./g, '\\.')}:`));
  });

  it('METRICS_TOKEN: unset turns /metrics off; a short or spaced token is refused, naming the variable', () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'a-scrape-token-of-some-length' }).METRICS_TOKEN).toBe(
      'a-scrape-token-of-some-length',
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the token' })).toThrow(
      /METRICS_TOKEN: must be printable ASCII without spaces/,
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
  });

  it('merges quota overrides over the defaults and trusts the public origin', () => {
    const c = loadConfig({
      PLAN_QUOTAS: '{"PRO":{"projects":25}}',
      PUBLIC_URL: 'https://seo.example.com',
      TRUSTED_ORIGINS: 'https://app.example.com, https://x.example.com',
    });
    expect(c.quotas.PRO).toEqual({ ...DEFAULT_QUOTAS.PRO, projects: 25 });
    expect(c.quotas.FREE).toEqual(DEFAULT_QUOTAS.FREE);
    expect(c.trustedOrigins).toEqual(['https://seo.example.com', 'https://app.example.com', 'https://x.example.com']);
  });
});
