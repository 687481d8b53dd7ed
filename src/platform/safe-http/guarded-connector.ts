import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { buildConnector } from 'undici';
import { ADDRESS_CLASS_LABELS, NAME_REFUSED_REASON } from './address-policy.js';
import type { AddressPolicy } from './address-policy.js';
import { SafeHttpError } from './safe-http-error.js';

/** Same shape as `dns.lookup(hostname, { all: true }, callback)`; injectable for tests. */
export type LookupFunction = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface GuardedConnectorOptions {
  policy: AddressPolicy;
  lookup?: LookupFunction;
  /** Bounds DNS resolution and, separately, each TCP/TLS connection attempt. */
  connectTimeoutMs: number;
  allowH2?: boolean;
  /** Extra trust anchors (intranet CAs, test certificates); system CAs stay in use when absent. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** At most this many resolved addresses are tried, in resolver order. */
  maxAddressesTried?: number;
  /** Told the negotiated ALPN protocol of each new connection (`h2`, `http/1.1`). */
  onConnected?: (origin: string, alpnProtocol: string) => void;
  /** The connector that dials the checked address; undici's own by default (replaced in tests). */
  baseConnector?: buildConnector.connector;
}

type ConnectResult = Socket | TLSSocket;

const RETRY_NEXT_ADDRESS = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Resolved addresses the connector tries at most, in resolver order (by default). */
export const MAX_ADDRESSES_TRIED = 3;

export function originKey(protocol: string, hostname: string, port: string | number): string {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const effectivePort = port === '' || port === undefined ? (protocol === 'https:' ? '443' : '80') : String(port);
  return `${protocol}//${host.toLowerCase()}:${effectivePort}`;
}

/** Resolves `hostname` within `timeoutMs`: DNS_FAILURE or TIMEOUT as a SafeHttpError otherwise. */
export function lookupWithTimeout(
  lookup: LookupFunction,
  hostname: string,
  timeoutMs: number,
): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(new SafeHttpError('TIMEOUT', `Resolving ${hostname} timed out`, { resolving: true }));
    }, timeoutMs);
    try {
      lookup(hostname, { all: true }, (error, addresses) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error || !Array.isArray(addresses) || addresses.length === 0) {
          reject(
            new SafeHttpError('DNS_FAILURE', `Could not resolve host ${hostname}`, {
              cause: error ?? undefined,
              resolving: true,
            }),
          );
        } else {
          resolve(addresses);
        }
      });
    } catch (error) {
      settled = true;
      clearTimeout(timer);
      reject(new SafeHttpError('DNS_FAILURE', `Could not resolve host ${hostname}`, { cause: error, resolving: true }));
    }
  });
}

/**
 * An undici connector that resolves the host itself, refuses the connection if ANY resolved address
 * is not allowed, and then dials the checked address (never the name, so a second DNS answer cannot
 * swap in a private address: DNS rebinding fails). TLS keeps the original host as SNI and for
 * certificate verification.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const lookup: LookupFunction = options.lookup ?? (dnsLookup as LookupFunction);
  const maxTried = options.maxAddressesTried ?? MAX_ADDRESSES_TRIED;
  const base =
    options.baseConnector ??
    buildConnector({
      timeout: options.connectTimeoutMs,
      allowH2: options.allowH2 ?? false,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });

  async function resolveChecked(hostname: string): Promise<string[]> {
    const literal = isIP(hostname) !== 0;
    const hostAllowed = options.policy.isHostAllowed(hostname);
    const addresses = literal
      ? [hostname]
      : (await lookupWithTimeout(lookup, hostname, options.connectTimeoutMs)).map((entry) => entry.address);
    if (!hostAllowed) {
      for (const address of addresses) {
        const blocked = options.policy.blockedClass(address);
        if (blocked !== null) {
          // A literal address is the user's own input and may be named with its class; a name's answer may not.
          throw new SafeHttpError(
            'BLOCKED_ADDRESS',
            literal
              ? `Refused: ${hostname} is ${ADDRESS_CLASS_LABELS[blocked]}`
              : `Refused: ${hostname} ${NAME_REFUSED_REASON}`,
            { addressClass: blocked },
          );
        }
      }
    }
    return [...new Set(addresses)];
  }

  return (connectOptions, callback) => {
    const hostname = connectOptions.hostname.startsWith('[')
      ? connectOptions.hostname.slice(1, -1)
      : connectOptions.hostname;
    const servername = isIP(hostname) === 0 ? connectOptions.servername || hostname : undefined;
    const origin = originKey(connectOptions.protocol, hostname, connectOptions.port);

    const attempt = (addresses: string[], index: number): void => {
      base({ ...connectOptions, hostname: addresses[index], servername }, (error, socket) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code ?? '';
          if (RETRY_NEXT_ADDRESS.has(code) && index + 1 < Math.min(addresses.length, maxTried)) {
            attempt(addresses, index + 1);
            return;
          }
          callback(error, null);
          return;
        }
        const connected = socket as ConnectResult;
        options.onConnected?.(origin, (connected as TLSSocket).alpnProtocol || 'http/1.1');
        callback(null, connected);
      });
    };

    resolveChecked(hostname).then(
      (addresses) => {
        try {
          attempt(addresses, 0);
        } catch (error) {
          callback(error as Error, null);
        }
      },
      (error: unknown) => callback(error as Error, null),
    );
  };
}
