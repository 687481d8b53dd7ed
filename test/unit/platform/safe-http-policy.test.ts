import type { LookupAddress } from 'node:dns';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  SafeHttpError,
  classifyAddress,
  createAddressPolicy,
  createGuardedConnector,
  parseAllowList,
  validateTargetUrl,
} from '../../../src/platform/safe-http/index.js';
import type { LookupFunction } from '../../../src/platform/safe-http/index.js';

describe('classifyAddress', () => {
  it.each([
    ['93.184.216.34', null],
    ['8.8.8.8', null],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', null],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:93.184.216.34', null],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'reserved'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::5db8:d822', null],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:5db8:d822::1', null],
    ['2001::1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    ['2606:4700:4700::1111', null],
    ['2a00:1450:4001::200e', null],
    ['not-an-ip', 'reserved'],
  ])('%s -> %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('createAddressPolicy', () => {
  it('blocks everything private by default', () => {
    const policy = createAddressPolicy();
    expect(policy.blockedClass('127.0.0.1')).toBe('loopback');
    expect(policy.isHostAllowed('localhost')).toBe(false);
  });

  it.each([
    ['127.0.0.1', null],
    ['127.9.9.9', null],
    ['::ffff:127.0.0.1', null],
    ['::1', null],
    ['10.0.0.1', 'private'],
    ['10.1.2.3', null],
    ['10.1.3.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
  ])('with CIDRs 127/8, ::1/128, 10.1.2.0/24: %s -> %s', (address, expected) => {
    const policy = createAddressPolicy({ allowCidrs: ['127.0.0.0/8', '::1/128', '10.1.2.0/24'] });
    expect(policy.blockedClass(address)).toBe(expected);
  });

  it('matches IPv4-mapped CIDRs against plain IPv4 addresses', () => {
    const policy = createAddressPolicy({ allowCidrs: ['::ffff:192.168.0.0/112'] });
    expect(policy.blockedClass('192.168.4.4')).toBeNull();
    expect(policy.blockedClass('192.169.0.1')).toBeNull();
    expect(policy.blockedClass('10.0.0.1')).toBe('private');
  });

  it.each([
    ['intranet.local', true],
    ['INTRANET.local.', true],
    ['www.intranet.local', false],
    ['a.corp.example', true],
    ['x.y.corp.example', true],
    ['corp.example', false],
    ['b.lab.test', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['127.0.0.2', false],
    ['evil-intranet.local', false],
  ])('allowHosts matches %s -> %s', (host, expected) => {
    const policy = createAddressPolicy({
      allowHosts: ['intranet.local', '*.corp.example', '.lab.test', '127.0.0.1', '::1'],
    });
    expect(policy.isHostAllowed(host)).toBe(expected);
  });

  it.each([['10.0.0.0/33'], ['10.0.0.0/x'], ['not-a-cidr/8'], ['::1/129'], ['10.0.0.0/8/8']])(
    'rejects an invalid CIDR %s',
    (cidr) => {
      expect(() => createAddressPolicy({ allowCidrs: [cidr] })).toThrow(TypeError);
    },
  );

  it('rejects an invalid host entry', () => {
    expect(() => createAddressPolicy({ allowHosts: ['http://x/'] })).toThrow(TypeError);
  });
});

describe('parseAllowList', () => {
  it.each([
    ['', { allowHosts: [], allowCidrs: [] }],
    [undefined, { allowHosts: [], allowCidrs: [] }],
    ['127.0.0.0/8,::1/128,intranet.local', { allowHosts: ['intranet.local'], allowCidrs: ['127.0.0.0/8', '::1/128'] }],
    [
      ' 10.0.0.5 , fd00::/8  Intranet.Local,*.corp.example ',
      {
        allowHosts: ['intranet.local', '*.corp.example'],
        allowCidrs: ['10.0.0.5/32', 'fd00::/8'],
      },
    ],
    ['[::1]', { allowHosts: [], allowCidrs: ['::1/128'] }],
  ])('parses %j', (input, expected) => {
    expect(parseAllowList(input)).toEqual(expected);
  });

  it.each([['http://intranet.local'], ['10.0.0.0/40'], ['bad_host!'], ['a..b']])('throws on %s', (input) => {
    expect(() => parseAllowList(input)).toThrow(TypeError);
  });

  it('feeds createAddressPolicy', () => {
    const policy = createAddressPolicy(parseAllowList('127.0.0.0/8,intranet.local'));
    expect(policy.blockedClass('127.0.0.1')).toBeNull();
    expect(policy.isHostAllowed('intranet.local')).toBe(true);
  });
});

describe('validateTargetUrl', () => {
  const policy = createAddressPolicy();
  const codeOf = (input: string, max = 2048): string => {
    try {
      validateTargetUrl(input, policy, max);
      return 'OK';
    } catch (error) {
      return (error as SafeHttpError).code;
    }
  };

  it.each([
    ['https://example.com/a?b=1#frag', 'OK'],
    ['http://example.com:8080/', 'OK'],
    ['ftp://example.com/', 'UNSUPPORTED_SCHEME'],
    ['file:///etc/passwd', 'UNSUPPORTED_SCHEME'],
    ['javascript:alert(1)', 'UNSUPPORTED_SCHEME'],
    ['data:text/html,hi', 'UNSUPPORTED_SCHEME'],
    ['gopher://127.0.0.1:6379/', 'UNSUPPORTED_SCHEME'],
    ['not a url', 'INVALID_URL'],
    ['/relative/path', 'INVALID_URL'],
    ['http://user:pass@example.com/', 'INVALID_URL'],
    ['http://user@example.com/', 'INVALID_URL'],
    ['http://127.0.0.1/', 'BLOCKED_ADDRESS'],
    ['http://2130706433/', 'BLOCKED_ADDRESS'],
    ['http://0x7f.1/', 'BLOCKED_ADDRESS'],
    ['http://017700000001/', 'BLOCKED_ADDRESS'],
    ['http://127.1/', 'BLOCKED_ADDRESS'],
    ['http://[::1]/', 'BLOCKED_ADDRESS'],
    ['http://[::ffff:127.0.0.1]/', 'BLOCKED_ADDRESS'],
    ['http://[::ffff:a9fe:a9fe]/', 'BLOCKED_ADDRESS'],
    ['http://0.0.0.0/', 'BLOCKED_ADDRESS'],
    ['http://10.0.0.1/', 'BLOCKED_ADDRESS'],
    ['http://169.254.169.254/latest/meta-data/', 'BLOCKED_ADDRESS'],
    ['http://100.64.0.1/', 'BLOCKED_ADDRESS'],
    ['http://[fd00::1]/', 'BLOCKED_ADDRESS'],
  ])('%s -> %s', (input, expected) => {
    expect(codeOf(input)).toBe(expected);
  });

  it('caps the URL length', () => {
    expect(codeOf(`https://example.com/${'a'.repeat(100)}`, 50)).toBe('INVALID_URL');
  });

  it('drops the fragment', () => {
    expect(validateTargetUrl('https://example.com/a#x', policy, 2048).href).toBe('https://example.com/a');
  });

  it('names the address class in the message', () => {
    expect(() => validateTargetUrl('http://169.254.169.254/', policy, 2048)).toThrow(/link-local/);
  });
});

describe('createGuardedConnector', () => {
  interface Dial {
    hostname: string;
    servername: string | undefined;
  }

  function spyBase(failFor: Record<string, string> = {}) {
    const dials: Dial[] = [];
    const base = (
      options: { hostname: string; servername?: string },
      callback: (...args: [null, Socket] | [Error, null]) => void,
    ): void => {
      dials.push({ hostname: options.hostname, servername: options.servername });
      const failCode = failFor[options.hostname];
      if (failCode) {
        callback(Object.assign(new Error(failCode), { code: failCode }), null);
      } else {
        callback(null, new Socket());
      }
    };
    return { dials, base };
  }

  function fakeLookup(table: Record<string, string[]>, calls: string[] = []): LookupFunction {
    return (hostname, _options, callback) => {
      calls.push(hostname);
      const addresses = table[hostname];
      if (!addresses) {
        callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []);
        return;
      }
      callback(
        null,
        addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    };
  }

  function connect(
    connector: ReturnType<typeof createGuardedConnector>,
    hostname: string,
    protocol = 'https:',
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      connector({ hostname, host: hostname, protocol, port: '' }, (error, socket) => {
        if (error) reject(error);
        else resolve(socket);
      });
    });
  }

  it('dials the resolved, checked address and keeps the host name for SNI', async () => {
    const { dials, base } = spyBase();
    const calls: string[] = [];
    const connector = createGuardedConnector({
      policy: createAddressPolicy(),
      lookup: fakeLookup({ 'example.com': ['93.184.216.34'] }, calls),
      connectTimeoutMs: 1000,
      baseConnector: base,
    });
    const socket = await connect(connector, 'example.com');
    (socket as Socket).destroy();
    expect(dials).toEqual([{ hostname: '93.184.216.34', servername: 'example.com' }]);
    expect(calls).toEqual(['example.com']);
  });

  it.each([['10.0.0.1'], ['169.254.169.254'], ['127.0.0.1'], ['::1'], ['::ffff:7f00:1'], ['0.0.0.0']])(
    'refuses literal %s without dialling',
    async (address) => {
      const { dials, base } = spyBase();
      const connector = createGuardedConnector({
        policy: createAddressPolicy(),
        connectTimeoutMs: 1000,
        baseConnector: base,
      });
      await expect(connect(connector, address)).rejects.toMatchObject({ code: 'BLOCKED_ADDRESS' });
      expect(dials).toEqual([]);
    },
  );

  it('refuses when ANY resolved address is private, before dialling the public one', async () => {
    const { dials, base } = spyBase();
    const connector = createGuardedConnector({
      policy: createAddressPolicy(),
      lookup: fakeLookup({ 'mixed.test': ['93.184.216.34', '10.0.0.7'] }),
      connectTimeoutMs: 1000,
      baseConnector: base,
    });
    const error = (await connect(connector, 'mixed.test').catch((e: unknown) => e)) as SafeHttpError;
    expect(error).toBeInstanceOf(SafeHttpError);
    expect(error.code).toBe('BLOCKED_ADDRESS');
    // What the name resolved to (the address, or its class) is our network's answer: the message names neither.
    expect(error.message).toBe(
      'Refused: mixed.test resolves to an address that is not allowed (private, loopback or reserved)',
    );
    expect(error.message).not.toContain('10.0.0.7');
    expect(error.message).not.toMatch(/private network address/);
    expect(error.addressClass).toBe('private');
    expect(dials).toEqual([]);
  });

  it('trusts an allow-listed host whatever it resolves to', async () => {
    const { dials, base } = spyBase();
    const connector = createGuardedConnector({
      policy: createAddressPolicy({ allowHosts: ['intranet.local'] }),
      lookup: fakeLookup({ 'intranet.local': ['10.20.30.40'] }),
      connectTimeoutMs: 1000,
      baseConnector: base,
    });
    ((await connect(connector, 'intranet.local', 'http:')) as Socket).destroy();
    expect(dials.map((dial) => dial.hostname)).toEqual(['10.20.30.40']);
  });

  it('falls back to the next checked address when one refuses the connection', async () => {
    const { dials, base } = spyBase({ '2606:4700::1': 'ECONNREFUSED' });
    const connector = createGuardedConnector({
      policy: createAddressPolicy(),
      lookup: fakeLookup({ 'dual.test': ['2606:4700::1', '93.184.216.34'] }),
      connectTimeoutMs: 1000,
      baseConnector: base,
    });
    ((await connect(connector, 'dual.test')) as Socket).destroy();
    expect(dials.map((dial) => dial.hostname)).toEqual(['2606:4700::1', '93.184.216.34']);
  });

  it('sends no SNI for a literal IP host', async () => {
    const { dials, base } = spyBase();
    const connector = createGuardedConnector({
      policy: createAddressPolicy(),
      connectTimeoutMs: 1000,
      baseConnector: base,
    });
    ((await connect(connector, '93.184.216.34')) as Socket).destroy();
    expect(dials).toEqual([{ hostname: '93.184.216.34', servername: undefined }]);
  });

  it('reports DNS failures and DNS timeouts', async () => {
    const { base } = spyBase();
    const failing = createGuardedConnector({
      policy: createAddressPolicy(),
      lookup: fakeLookup({}),
      connectTimeoutMs: 1000,
      baseConnector: base,
    });
    await expect(connect(failing, 'nowhere.test')).rejects.toMatchObject({ code: 'DNS_FAILURE' });
    const hanging = createGuardedConnector({
      policy: createAddressPolicy(),
      lookup: () => undefined,
      connectTimeoutMs: 50,
      baseConnector: base,
    });
    await expect(connect(hanging, 'slow.test')).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
});
