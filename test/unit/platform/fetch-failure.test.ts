import { describe, expect, it } from 'vitest';
import {
  SafeHttpError,
  createAddressPolicy,
  describeFetchFailure,
  refusedTarget,
} from '../../../src/platform/safe-http/index.js';

const cause = (code: string) => Object.assign(new Error(code), { code });

describe('describeFetchFailure: one sentence naming the URL and the cause', () => {
  it.each([
    [
      new SafeHttpError('CONNECTION_FAILED', 'The server refused the connection', { cause: cause('ECONNREFUSED') }),
      'Could not connect to https://shop.example/: connection refused',
    ],
    [
      new SafeHttpError('CONNECTION_FAILED', 'The connection was closed unexpectedly', { cause: cause('ECONNRESET') }),
      'Could not connect to https://shop.example/: the connection was closed unexpectedly',
    ],
    [
      new SafeHttpError('CONNECTION_FAILED', 'The TLS connection failed (CERT_HAS_EXPIRED)', {
        cause: cause('CERT_HAS_EXPIRED'),
      }),
      'Could not connect to https://shop.example/: the TLS connection failed (CERT_HAS_EXPIRED)',
    ],
    [
      new SafeHttpError('DNS_FAILURE', 'Could not resolve host shop.example'),
      'Could not resolve the host of https://shop.example/: could not resolve host shop.example',
    ],
    [
      new SafeHttpError('TIMEOUT', 'The server did not send response headers within 10000 ms'),
      'https://shop.example/ did not answer in time: the server did not send response headers within 10000 ms',
    ],
    [
      new SafeHttpError(
        'BLOCKED_ADDRESS',
        'Refused: shop.example resolves to an address that is not allowed (private, loopback or reserved)',
      ),
      'Refused to fetch https://shop.example/: shop.example resolves to an address that is not allowed (private, ' +
        'loopback or reserved); only public sites can be audited (SAFE_HTTP_ALLOW admits private ones)',
    ],
    [
      new SafeHttpError('BLOCKED_ADDRESS', 'Refused: 169.254.169.254 is a link-local address', {
        url: 'http://169.254.169.254/',
        redirects: [{ url: 'https://shop.example/', status: 302 }],
      }),
      'Refused to fetch https://shop.example/ (it redirects to http://169.254.169.254/): 169.254.169.254 is ' +
        'a link-local address; only public sites can be audited (SAFE_HTTP_ALLOW admits private ones)',
    ],
    [
      new SafeHttpError('REDIRECT_LOOP', 'Redirect loop: https://shop.example/a was already visited'),
      'Could not fetch https://shop.example/: redirect loop: https://shop.example/a was already visited',
    ],
    [new Error('socket hang up'), 'Could not fetch https://shop.example/: socket hang up'],
  ])('%s', (err, message) => {
    expect(describeFetchFailure('https://shop.example/', err)).toBe(message);
  });
});

describe('refusedTarget: the safe client URL guard plus internal-only names, no DNS lookup', () => {
  const strict = createAddressPolicy();
  const loopbackAllowed = createAddressPolicy({ allowCidrs: ['127.0.0.0/8'] });
  const hostAllowed = createAddressPolicy({ allowHosts: ['intranet.internal'] });

  it.each([
    ['http://169.254.169.254/', strict, 'Refused: 169.254.169.254 is a link-local address'],
    ['http://10.0.0.1/', strict, 'Refused: 10.0.0.1 is a private network address'],
    ['http://127.0.0.1:8080/', strict, 'Refused: 127.0.0.1 is a loopback address'],
    ['http://2130706433/', strict, 'Refused: 127.0.0.1 is a loopback address'],
    ['http://localhost:3000/', strict, 'Refused: localhost is a loopback address'],
    ['http://app.localhost/', strict, 'Refused: app.localhost is a loopback address'],
    ['http://metadata.google.internal/', strict, 'Refused: metadata.google.internal is an internal-only name'],
    ['http://metadata.google.internal./', strict, 'Refused: metadata.google.internal is an internal-only name'],
    ['http://nas.local/', strict, 'Refused: nas.local is an internal-only name'],
    ['http://router.home.arpa/', strict, 'Refused: router.home.arpa is an internal-only name'],
    ['ftp://shop.example/', strict, 'Only http and https URLs can be fetched (got ftp)'],
  ])('%s is refused', (url, policy, message) => {
    expect(refusedTarget(url, policy)?.message).toBe(message);
  });

  it.each([
    ['https://shop.example/', strict],
    ['https://internal.example.com/', strict],
    ['http://127.0.0.1:8080/', loopbackAllowed],
    ['http://localhost:3000/', loopbackAllowed],
    ['http://intranet.internal/', hostAllowed],
  ])('%s is accepted', (url, policy) => {
    expect(refusedTarget(url, policy)).toBeNull();
  });
});
