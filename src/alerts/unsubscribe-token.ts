import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The token of an e-mail's unsubscribe link: the user's id and an HMAC of it, so the link works without signing in
 * and cannot be made for someone else. It turns off every alert e-mail of that user (immediate and digest).
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, 'seo-audit-platform', 'alert-unsubscribe', 32));
  }

  private mac(userId: string): Buffer {
    return createHmac('sha256', this.key).update(`unsubscribe:${userId}`).digest();
  }

  create(userId: string): string {
    return `${Buffer.from(userId, 'utf8').toString('base64url')}.${this.mac(userId).toString('base64url')}`;
  }

  /** The user the token was made for, or null for anything else. */
  verify(token: string): string | null {
    const match = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
    if (!match) return null;
    const userId = Buffer.from(match[1], 'base64url').toString('utf8');
    const given = Buffer.from(match[2], 'base64url');
    const expected = this.mac(userId);
    return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
  }
}
