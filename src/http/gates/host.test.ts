/** The Host check: which Host headers name this server, for loopback and LAN binds. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoRoute, shellWith } from '../../../test/helpers/http-shell.js';
import { canonicalHostname, parseAllowedHosts } from '../../config/allowed-hosts.js';
import { HostPolicy } from './host.js';

const allows = (policy: HostPolicy, host: string): boolean => {
  const name = canonicalHostname(host);
  return name !== null && policy.allowsName(name);
};

describe('Host check', () => {
  it('canonicalises Host values and refuses what a browser never sends', () => {
    assert.equal(canonicalHostname('LocalHost:8080'), 'localhost');
    assert.equal(canonicalHostname('localhost.'), 'localhost');
    assert.equal(canonicalHostname('[0:0:0:0:0:0:0:1]:80'), '[::1]');
    assert.equal(canonicalHostname('127.1'), '127.0.0.1');
    for (const bad of ['evil.com@localhost', 'localhost/x', '%6cocalhost', 'a b', '', 'localhost:99999999']) {
      assert.equal(canonicalHostname(bad), null, bad);
    }
    assert.equal(canonicalHostname(undefined), null);
  });

  it('bound to loopback: only the loopback names and the allowed hosts', () => {
    const policy = new HostPolicy({
      bindHost: '127.0.0.1',
      allowedHosts: parseAllowedHosts('tasks.example.com, .home.arpa'),
      machineName: 'box',
    });
    for (const ok of ['localhost:8080', '127.0.0.1:1', '[::1]:8080', 'localhost', 'Tasks.Example.com']) {
      assert.equal(allows(policy, ok), true, ok);
    }
    assert.equal(allows(policy, 'nas.home.arpa'), true);
    assert.equal(allows(policy, 'home.arpa'), true);
    for (const bad of [
      'evil.example.com:8080',
      'box',
      '192.168.1.5:8080',
      'localhost.evil.com',
      'xhome.arpa',
    ]) {
      assert.equal(allows(policy, bad), false, bad);
    }
  });

  it('bound to another loopback address: that address too, as the listening line prints it', () => {
    const policy = new HostPolicy({ bindHost: '127.0.0.2', machineName: 'box' });
    for (const ok of ['127.0.0.2:8080', '127.0.0.1:8080', 'localhost'])
      assert.equal(allows(policy, ok), true, ok);
    for (const bad of ['127.0.0.3:8080', '192.168.1.5', 'box']) assert.equal(allows(policy, bad), false, bad);
  });

  it('bound to a LAN address: also IP addresses and the machine name, never foreign names', () => {
    const policy = new HostPolicy({ bindHost: '0.0.0.0', machineName: 'Box' });
    for (const ok of ['192.168.1.5:8080', '[fe80::1]:8080', 'box:8080', 'box.local', 'localhost']) {
      assert.equal(allows(policy, ok), true, ok);
    }
    for (const bad of ['evil.example.com', 'box.evil.com']) assert.equal(allows(policy, bad), false, bad);
  });

  it('refuses every path with 403 Host not allowed, matched or not, and logs each name once', async () => {
    const { app, log } = await shellWith([echoRoute('/api/ping'), echoRoute('/', { public: true })]);
    for (const url of ['/api/ping', '/', '/nope', '/mcp']) {
      for (const method of ['GET', 'POST', 'OPTIONS'] as const) {
        const res = await app.inject({ method, url, headers: { host: 'evil.example.com:8080' } });
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.deepEqual(res.json(), { success: false, error: 'Host not allowed' });
      }
    }
    const ok = await app.inject({ method: 'GET', url: '/api/ping', headers: { host: 'localhost:8080' } });
    assert.equal(ok.statusCode, 200);
    assert.equal(log().match(/evil\.example\.com/g)?.length, 1, 'one warning for the refused name');
    await app.close();
  });

  it('rejects malformed --allowed-hosts entries', () => {
    assert.deepEqual(parseAllowedHosts(' A.example ,, .b.example '), ['a.example', '.b.example']);
    assert.throws(() => parseAllowedHosts('ok.example,bad host'), /invalid allowed host "bad host"/);
    assert.throws(() => parseAllowedHosts('http://x.example'), /invalid allowed host/);
  });
});
