import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { BlockedAddressClass } from './safe-http-error.js';

/**
 * Which destinations the safe client may connect to. Default: public unicast only. Tests and
 * intranet installs widen it explicitly with host names and/or CIDR ranges; nothing else does.
 */
export interface AllowList {
  /**
   * Host names (or literal IPs, as written in the URL) whose resolved addresses are not checked.
   * `intranet.local` matches exactly; `*.corp.example` / `.corp.example` match its subdomains.
   */
  allowHosts?: string[];
  /** Address ranges that may be connected to even though they are private, e.g. `127.0.0.0/8`, `::1/128`. */
  allowCidrs?: string[];
}

export interface AddressPolicy {
  /** True when the URL host itself is allow-listed (its addresses are then trusted). */
  isHostAllowed(hostname: string): boolean;
  /** `null` when the address may be connected to, else the class that forbids it. */
  blockedClass(address: string): BlockedAddressClass | null;
}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const GLOBAL_UNICAST_V6: Cidr = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN: Cidr = ipaddr.parseCIDR('64:ff9b::/96');
const HOST_PATTERN =
  /^(?:\*\.|\.)?[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

const V4_CLASSES: ReadonlySet<string> = new Set<BlockedAddressClass>([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'carrierGradeNat',
  'private',
]);
const V6_CLASSES: ReadonlySet<string> = new Set<BlockedAddressClass>([
  'unspecified',
  'linkLocal',
  'multicast',
  'loopback',
  'uniqueLocal',
]);

/**
 * Human wording for error messages about an address the user gave ("10.0.0.1 is a private network address"). Never
 * for what a host name resolved to: that is our network's answer, not the user's input (NAME_REFUSED_REASON).
 */
export const ADDRESS_CLASS_LABELS: Record<BlockedAddressClass, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved or special-purpose address',
  unspecified: 'an unspecified address',
  uniqueLocal: 'a unique-local (private) IPv6 address',
};

/**
 * Why a host name is refused, without what it resolved to: which class of internal address a name leads to (and the
 * address itself) is information about our network. Logs may say more; messages a user reads say this.
 */
export const NAME_REFUSED_REASON = 'resolves to an address that is not allowed (private, loopback or reserved)';

function classifyV4(address: ipaddr.IPv4): BlockedAddressClass | null {
  const range = address.range();
  if (range === 'unicast') return null;
  return V4_CLASSES.has(range) ? (range as BlockedAddressClass) : 'reserved';
}

function embeddedV4(parts: number[], highIndex: number): ipaddr.IPv4 {
  const high = parts[highIndex];
  const low = parts[highIndex + 1];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function classifyV6(address: ipaddr.IPv6): BlockedAddressClass | null {
  const range = address.range();
  switch (range) {
    case 'unicast':
      // Only 2000::/3 is routed on the internet; e.g. the deprecated IPv4-compatible ::a.b.c.d is not.
      return address.match(GLOBAL_UNICAST_V6) ? null : 'reserved';
    case 'rfc6052':
      // NAT64 addresses carry an IPv4 destination that must itself be public.
      return address.match(NAT64_WELL_KNOWN) ? classifyV4(embeddedV4(address.parts, 6)) : 'reserved';
    case '6to4':
      return classifyV4(embeddedV4(address.parts, 1));
    default:
      if (V6_CLASSES.has(range)) return range as BlockedAddressClass;
      // deprecated site-local fec0::/10 behaves like RFC 1918 space
      if ((range as string) === 'deprecatedSiteLocal') return 'private';
      return 'reserved';
  }
}

/**
 * Classifies one IP address (no allow-list). IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is unwrapped first.
 * Returns null for a public unicast address.
 */
export function classifyAddress(address: string): BlockedAddressClass | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(stripBrackets(address));
  } catch {
    return 'reserved';
  }
  return parsed.kind() === 'ipv4' ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6);
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Lower-cases, drops IPv6 brackets and a trailing dot, and canonicalises IP literals. */
export function normalizeHostname(hostname: string): string {
  const host = stripBrackets(hostname.trim().toLowerCase()).replace(/\.$/, '');
  return isIP(host) ? ipaddr.parse(host).toString() : host;
}

function parseCidr(entry: string): Cidr {
  const [rawBase, prefix, extra] = entry.split('/');
  const base = stripBrackets(rawBase);
  const version = isIP(base);
  if (version === 0 || extra !== undefined) throw new TypeError(`Invalid CIDR range in allow-list: "${entry}"`);
  const maxBits = version === 4 ? 32 : 128;
  const bits = prefix === undefined ? maxBits : Number(prefix);
  if ((prefix !== undefined && !/^\d{1,3}$/.test(prefix)) || bits > maxBits) {
    throw new TypeError(`Invalid CIDR prefix length in allow-list: "${entry}"`);
  }
  const address = ipaddr.parse(base);
  // `::ffff:10.0.0.0/104` means the IPv4 range; addresses are compared after unwrapping.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [address, bits];
}

export function createAddressPolicy(allow: AllowList = {}): AddressPolicy {
  const cidrs = (allow.allowCidrs ?? []).map((entry) => parseCidr(entry.trim()));
  const exactHosts = new Set<string>();
  const suffixes: string[] = [];
  for (const raw of allow.allowHosts ?? []) {
    const entry = raw.trim();
    if (!HOST_PATTERN.test(stripBrackets(entry)) && isIP(stripBrackets(entry)) === 0) {
      throw new TypeError(`Invalid host name in allow-list: "${raw}"`);
    }
    if (entry.startsWith('*.') || entry.startsWith('.')) {
      suffixes.push('.' + normalizeHostname(entry.replace(/^\*?\./, '')));
    } else {
      exactHosts.add(normalizeHostname(entry));
    }
  }

  return {
    isHostAllowed(hostname) {
      if (exactHosts.size === 0 && suffixes.length === 0) return false;
      const host = normalizeHostname(hostname);
      return exactHosts.has(host) || suffixes.some((suffix) => host.endsWith(suffix));
    },
    blockedClass(address) {
      const blocked = classifyAddress(address);
      if (blocked === null || cidrs.length === 0) return blocked;
      const parsed = ipaddr.process(stripBrackets(address));
      const allowed = cidrs.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
      return allowed ? null : blocked;
    },
  };
}

/**
 * Parses an env-style allow-list, e.g. `127.0.0.0/8,::1/128,intranet.local` (commas and/or whitespace).
 * IPs and CIDRs go to `allowCidrs` (a bare IP becomes /32 or /128), names to `allowHosts`.
 * Throws TypeError on an entry that is neither, so a typo in configuration is fatal, not ignored.
 */
export function parseAllowList(value: string | undefined | null): Required<AllowList> {
  const result: Required<AllowList> = { allowHosts: [], allowCidrs: [] };
  for (const entry of (value ?? '').split(/[\s,]+/)) {
    if (entry === '') continue;
    if (isIP(stripBrackets(entry.split('/')[0])) !== 0) {
      const [address, bits] = parseCidr(entry);
      result.allowCidrs.push(`${address.toString()}/${bits}`);
    } else if (HOST_PATTERN.test(entry)) {
      result.allowHosts.push(entry.toLowerCase());
    } else {
      throw new TypeError(`Invalid allow-list entry "${entry}": expected a host name, an IP address or a CIDR range`);
    }
  }
  return result;
}
