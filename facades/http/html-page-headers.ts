/**
 * The headers of every HTML page this server sends (the API reference at /docs, the web application): its CSP,
 * no MIME sniffing, no framing, no powerful browser features, isolated from other origins, always revalidated.
 */
export function htmlPageHeaders(
  csp: string,
  referrerPolicy: 'no-referrer' | 'strict-origin-when-cross-origin',
): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': referrerPolicy,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'cache-control': 'no-cache',
  };
}
