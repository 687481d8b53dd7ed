import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  UnsubscribeTokens,
  WebhookSecretBox,
  digestProject,
  signWebhook,
  verifyWebhookSignature,
} from '../../../src/alerts/index.js';

describe('webhook signatures (Stripe-style)', () => {
  const secret = 'whsec_test';
  const body = '{"id":"evt","type":"alert.score_drop"}';

  it('is t=<unix>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const header = signWebhook(secret, body, 1_700_000_000);
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(header).toBe(`t=1700000000,v1=${expected}`);
  });

  it('verifies within the tolerance only, and only the exact body with the right secret', () => {
    const t = 1_700_000_000;
    const header = signWebhook(secret, body, t);
    expect(verifyWebhookSignature(secret, body, header, { now: t + 299 })).toBe(true);
    expect(verifyWebhookSignature(secret, body, header, { now: t + 301 })).toBe(false);
    expect(verifyWebhookSignature(secret, `${body} `, header, { now: t })).toBe(false);
    expect(verifyWebhookSignature('whsec_other', body, header, { now: t })).toBe(false);
    expect(verifyWebhookSignature(secret, body, undefined, { now: t })).toBe(false);
    expect(verifyWebhookSignature(secret, body, 'v1=abc', { now: t })).toBe(false);
    // A header with a second, older signature (a rotated secret) verifies when one of them matches.
    const other = signWebhook('whsec_old', body, t).split(',')[1];
    expect(verifyWebhookSignature(secret, body, `${header},${other}`, { now: t })).toBe(true);
  });
});

describe('webhook secrets at rest', () => {
  it('seals with AES-GCM: opens with the same key material only, and differs each time', () => {
    const box = new WebhookSecretBox('k'.repeat(40));
    const secret = WebhookSecretBox.generate();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const a = box.seal(secret);
    const b = box.seal(secret);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret.slice(6));
    expect(box.open(a)).toBe(secret);
    expect(new WebhookSecretBox('x'.repeat(40)).open(a)).toBeNull();
    // Altered: one bit of the ciphertext flipped. (Writing "AA" over its last two characters left it as it was
    // whenever its last byte was 0, one seal in 256: CI saw the secret opened.)
    const [version, iv, tag, data] = a.split('.');
    const altered = Buffer.from(data, 'base64url');
    altered[altered.length - 1] ^= 1;
    expect(box.open([version, iv, tag, altered.toString('base64url')].join('.'))).toBeNull();
    expect(box.open('plain')).toBeNull();
  });
});

describe('unsubscribe tokens', () => {
  it('name their user, and cannot be made for another', () => {
    const tokens = new UnsubscribeTokens('k'.repeat(40));
    const token = tokens.create('user-123');
    expect(tokens.verify(token)).toBe('user-123');
    const forged = `${Buffer.from('user-456').toString('base64url')}.${token.split('.')[1]}`;
    expect(tokens.verify(forged)).toBeNull();
    expect(new UnsubscribeTokens('x'.repeat(40)).verify(token)).toBeNull();
    expect(tokens.verify('garbage')).toBeNull();
  });
});

describe('the weekly digest of a project', () => {
  it('says the score trend, new critical issues once per code, and the biggest movers each way', () => {
    const m = (keyword: string, before: number | null, after: number | null, both = true) => ({
      keyword,
      before,
      after,
      checkedBefore: both,
      checkedAfter: true,
    });
    const view = digestProject({
      name: 'Shop',
      url: 'https://app.example/projects/1',
      weekScores: [70, 76],
      scoreBefore: 80,
      newCritical: [
        { code: 'X', title: 'Broken links', severity: 'CRITICAL', urls: 2, exampleUrls: [] },
        { code: 'X', title: 'Broken links', severity: 'CRITICAL', urls: 5, exampleUrls: [] },
      ],
      movers: [m('up', 9, 3), m('down', 2, 12), m('gone', 5, null), m('same', 4, 4), m('new', null, 1, false)],
    });
    expect(view.scoreLine).toBe('Overall score 76 (down 4 from 80).');
    expect(view.weekScores).toEqual([70, 76]);
    expect(view.criticalIssues).toEqual([{ title: 'Broken links', urls: 5 }]);
    expect(view.gainers).toEqual(['“up” #9 → #3']);
    expect(view.losers).toEqual(['“gone” #5 → not ranking', '“down” #2 → #12']);
  });
});
