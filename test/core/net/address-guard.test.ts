/**
 * The webhook address rules: how addresses are classified (including the disguised forms), what
 * a loopback and a public bind allow, this server's own address, and names that resolve (or
 * later re-resolve) to a refused address.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AddressGuard,
  AddressRefused,
  classifyAddress,
  embeddedIpv4,
  type GuardPolicy,
  type Lookup,
} from '../../../src/core/net/address-guard.js';

const guard = (policy: Partial<GuardPolicy> = {}, lookup?: Lookup) =>
  new AddressGuard(
    { listenHost: '127.0.0.1', listenPort: () => 8080, allowPrivate: false, ...policy },
    lookup,
  );

const refusal = async (g: AddressGuard, url: string): Promise<string | undefined> => {
  try {
    await g.checkUrl(url);
    return undefined;
  } catch (err) {
    assert.ok(err instanceof AddressRefused, String(err));
    return err.message;
  }
};

describe('address classification', () => {
  const cases: Array<[string, string]> = [
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['::7f00:1', 'loopback'],
    ['[::ffff:10.1.2.3]', 'private'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['2001:4860:4860::8888', 'public'],
  ];
  for (const [address, kind] of cases) {
    it(`${address} is ${kind}`, () => assert.equal(classifyAddress(address), kind));
  }

  it('reads the IPv4 address inside mapped, compatible and NAT64 IPv6 addresses', () => {
    assert.equal(embeddedIpv4('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(embeddedIpv4('::ffff:c000:201'), '192.0.2.1');
    assert.equal(embeddedIpv4('64:ff9b::c000:201'), '192.0.2.1');
    assert.equal(embeddedIpv4('::1'), undefined);
    assert.equal(embeddedIpv4('2001:db8::1'), undefined);
  });
});

describe('registration check', () => {
  it('always refuses link-local, metadata, unspecified, multicast and broadcast targets, in every spelling', async () => {
    const g = guard();
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[fd00:ec2::254]/',
      'http://0.0.0.0:5678/',
      'http://0/',
      'http://[::]/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://2852039166/', // 169.254.169.254 as one number
      'http://0xa9.0xfe.0xa9.0xfe/',
      'http://[::ffff:169.254.169.254]/',
    ]) {
      assert.ok(await refusal(g, url), url);
    }
  });

  it('allows loopback and private targets when the server listens on loopback', async () => {
    const g = guard();
    for (const url of [
      'http://127.0.0.1:5678/hook',
      'http://[::1]:5678/',
      'http://10.0.0.1/',
      'http://192.168.1.5/',
    ]) {
      assert.equal(await refusal(g, url), undefined, url);
    }
  });

  it('refuses loopback and private targets, however written, when listening on a public address', async () => {
    const g = guard({ listenHost: '0.0.0.0' });
    for (const url of [
      'http://127.0.0.1:5678/',
      'http://2130706433:5678/',
      'http://0x7f.1:5678/',
      'http://017700000001:5678/',
      'http://127.1:5678/',
      'http://[::1]:5678/',
      'http://[::ffff:127.0.0.1]:5678/',
      'http://10.0.0.1/',
      'http://172.16.0.1/',
      'http://192.168.0.1/',
    ]) {
      assert.match((await refusal(g, url)) ?? '', /--webhook-allow-private/, url);
    }
    assert.equal(await refusal(g, 'https://93.184.216.34/hook'), undefined);
    const open = guard({ listenHost: '0.0.0.0', allowPrivate: true });
    assert.equal(await refusal(open, 'http://10.0.0.1/'), undefined);
    assert.match(
      (await refusal(open, 'http://169.254.169.254/')) ?? '',
      /link-local/,
      'metadata stays refused',
    );
  });

  it("never allows this server's own address and port", async () => {
    const lookup: Lookup = async (host) => (host === 'localhost' ? ['127.0.0.1', '::1'] : []);
    const g = guard({}, lookup);
    assert.match((await refusal(g, 'http://127.0.0.1:8080/api/tasks')) ?? '', /this server's own address/);
    assert.match((await refusal(g, 'http://localhost:8080/api/tasks')) ?? '', /localhost \(127\.0\.0\.1\)/);
    assert.equal(await refusal(g, 'http://127.0.0.1:8081/'), undefined, 'another port is another program');
    assert.equal(await refusal(g, 'http://127.0.0.2:8080/'), undefined, 'another loopback address');
    const everywhere = guard({ listenHost: '0.0.0.0', allowPrivate: true });
    assert.match((await refusal(everywhere, 'http://127.0.0.5:8080/')) ?? '', /own address/);
    const unbound = guard({ listenPort: () => undefined });
    assert.equal(await refusal(unbound, 'http://127.0.0.1:8080/'), undefined);
  });

  it('judges a name by every address it resolves to, and leaves names that do not resolve to connect time', async () => {
    const lookup: Lookup = async (host) => {
      if (host === 'metadata.test') return ['93.184.216.34', '169.254.169.254'];
      if (host === 'fine.test') return ['93.184.216.34'];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    const g = guard({}, lookup);
    assert.equal(
      await refusal(g, 'https://metadata.test/'),
      'metadata.test (169.254.169.254) is a link-local address (where cloud metadata services answer)',
    );
    assert.equal(await refusal(g, 'https://fine.test/'), undefined);
    assert.equal(await refusal(g, 'https://nowhere.test/'), undefined);
  });
});

describe('connect-time check', () => {
  it('refuses a name that re-resolves to a refused address (DNS rebinding), saying why', async () => {
    let calls = 0;
    const lookup: Lookup = async () => (calls++ === 0 ? ['93.184.216.34'] : ['127.0.0.1']);
    const g = guard({ listenHost: '0.0.0.0' }, lookup);
    await g.checkUrl('http://rebind.test/hook');
    await assert.rejects(g.vet('rebind.test', 80), (err: Error) => {
      assert.ok(err instanceof AddressRefused);
      assert.match(
        err.message,
        /^Refused by the webhook address rules: rebind\.test \(127\.0\.0\.1\) is a loopback address/,
      );
      return true;
    });
  });

  it('returns the address to dial when every resolved address is allowed', async () => {
    const g = guard({}, async () => ['127.0.0.1', '::1']);
    assert.equal(await g.vet('localhost', 5678), '127.0.0.1');
    assert.equal(await g.vet('[::1]', 5678), '::1');
    await assert.rejects(g.vet('127.0.0.1', 8080), /own address/);
  });
});
