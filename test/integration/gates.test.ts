/**
 * The gates against the built server: auth and the API switch decide on the route the router
 * serves (however the path is disguised), the Host check stops DNS rebinding on every path,
 * cross-site requests change nothing, the token can come from a file, and wrong tokens lock a
 * client out for a while.
 */
import assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 'gate-test-token';
const TASK = 'TaskNotes/Tasks/Alpha.md';
const ALPHA = '---\ntitle: Alpha\nstatus: open\ntags:\n  - task\n---\n';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Sends the request line exactly as given (fetch would normalise the path first). */
function raw(
  server: TestServer,
  method: string,
  rawPath: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path: rawPath, headers, setHost: !('host' in headers) },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const hex = (ch: string): string =>
  [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** Disguises of one path: every way a client could spell it that a router might still serve. */
function disguises(pathname: string): string[] {
  const out = new Set<string>();
  const chars = [...pathname];
  chars.forEach((ch, i) => {
    if (ch === '/') return;
    const before = chars.slice(0, i).join('');
    const after = chars.slice(i + 1).join('');
    out.add(`${before}${hex(ch)}${after}`);
    out.add(`${before}${hex(ch).toUpperCase()}${after}`);
    out.add(`${before}%25${hex(ch).slice(1)}${after}`); // double encoding
  });
  out.add(chars.map((ch) => (ch === '/' ? ch : hex(ch))).join(''));
  out.add(pathname.toUpperCase());
  out.add(pathname.replace(/\/(\w)/g, (_m, c: string) => `/${c.toUpperCase()}`));
  const segments = pathname.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const head = `/${segments.slice(0, i + 1).join('/')}`;
    const tail = segments.slice(i + 1).join('/');
    const rest = tail === '' ? '' : `/${tail}`;
    out.add(`${head}.${rest}`); // trailing dot
    out.add(`${head}/.${rest}`);
    out.add(`${head}%2e${rest}`);
    out.add(`${head}/${rest}`); // double slash
    out.add(`${head}%20${rest}`);
    out.add(`${head};x${rest}`);
    if (tail !== '') {
      out.add(`${head}%2F${tail}`);
      out.add(`${head}%2f${tail}`);
      out.add(`${head}%5C${tail}`);
      out.add(`${head}/x/..${rest}`);
      out.add(`${head}/%2e%2e/${segments[i]}${rest}`);
    }
  }
  out.add(`/${pathname}`);
  out.add(`/.${pathname}`);
  out.add(`/x/..${pathname}`);
  out.add(`${pathname}/`);
  out.add(`${pathname}.`);
  out.add(`${pathname}%00`);
  out.add(`${pathname}%09`);
  out.add(`${pathname}?x=1`);
  out.add(`${pathname}#frag`);
  out.add(pathname.replace('/', '/%EF%BD%81')); // fullwidth letter in front
  out.delete(pathname);
  return [...out];
}

describe('auth decides on the route the router serves', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ token: TOKEN, files: { [TASK]: ALPHA } });
  });
  after(() => server.cleanup());

  const authed = { authorization: `Bearer ${TOKEN}` };
  const state = async () => {
    const tasks = await server.request('GET', '/api/tasks', undefined, authed);
    const hooks = await server.request('GET', '/api/webhooks', undefined, authed);
    const api = await server.request('GET', '/settings-api/api', undefined, authed);
    return JSON.stringify([tasks.body.data.pagination.total, hooks.body.data, api.body.data]);
  };

  it('serves none of the issue reproductions without the token', async () => {
    const before = await state();
    const id = encodeURIComponent(TASK);
    const cases: Array<[string, string, string?]> = [
      ['GET', '/%61pi/tasks'],
      ['POST', '/%61pi/webhooks', JSON.stringify({ url: 'http://127.0.0.1:9/x', events: ['task.created'] })],
      ['DELETE', `/%61pi/tasks/${id}`],
      ['PUT', '/%73ettings-api/api', JSON.stringify({ enabled: false })],
    ];
    for (const [method, p, body] of cases) {
      const res = await raw(server, method, p, { 'content-type': 'application/json' }, body);
      assert.equal(res.status, 401, `${method} ${p}: ${res.body}`);
    }
    assert.equal(await state(), before, 'nothing changed');
  });

  it('serves no disguise of a protected path without the token', async () => {
    const before = await state();
    const id = encodeURIComponent(TASK);
    const targets: Array<[string, string, string?]> = [
      ['GET', '/api/tasks'],
      ['GET', '/api/health'],
      ['GET', `/api/tasks/${id}`],
      ['DELETE', `/api/tasks/${id}`],
      ['POST', '/api/webhooks', JSON.stringify({ url: 'http://127.0.0.1:9/x', events: ['task.created'] })],
      ['PUT', '/settings-api/api', JSON.stringify({ enabled: false })],
      ['POST', '/settings-api/api/token', JSON.stringify({ token: 'attacker' })],
      ['GET', '/settings-api/webhooks'],
    ];
    let tried = 0;
    const served: string[] = [];
    for (const [method, p, body] of targets) {
      for (const variant of disguises(p)) {
        const res = await raw(server, method, variant, { 'content-type': 'application/json' }, body);
        tried++;
        if (res.status !== 401 && res.status !== 400) served.push(`${method} ${variant} → ${res.status}`);
      }
    }
    assert.ok(tried > 300, `${tried} variants`);
    assert.deepEqual(served, [], 'every disguise answers 401 (or 400 for a malformed URL)');
    assert.equal(await state(), before, 'nothing changed');
  });
});

describe('requests the router or the HTTP parser refuse', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ token: TOKEN, files: { [TASK]: ALPHA } });
  });
  after(() => server.cleanup());

  it('judges a long path parameter by the gates, then answers it in the envelope', async () => {
    const long = 'a'.repeat(3_000);
    for (const route of [`/api/tasks/${long}`, `/api/webhooks/${long}`, `/api/webhooks/deliveries/${long}`]) {
      const foreign = await raw(server, 'GET', route, {
        host: 'evil.example',
        authorization: `Bearer ${TOKEN}`,
      });
      assert.equal(foreign.status, 403, `${route.slice(0, 20)}: ${foreign.body.slice(0, 80)}`);
      assert.equal((await raw(server, 'GET', route)).status, 401);
      const authed = await raw(server, 'GET', route, { authorization: `Bearer ${TOKEN}` });
      assert.equal(authed.status, 404);
      assert.equal(JSON.parse(authed.body).success, false);
      assert.doesNotMatch(authed.body, /aaaaaaaaaa/, 'the path is not echoed back');
    }
  });

  it('answers a request whose headers are too large in the envelope, on a closed connection', async () => {
    const res = await raw(server, 'GET', '/api/health', { 'x-filler': 'x'.repeat(20_000) });
    assert.equal(res.status, 431);
    assert.equal(res.headers.connection, 'close');
    assert.deepEqual(JSON.parse(res.body), {
      success: false,
      error: 'Request header fields (or the URL) too large',
    });
  });
});

describe('Host check and cross-site requests', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ files: { [TASK]: ALPHA } });
  });
  after(() => server.cleanup());

  const port = () => new URL(server.url).port;
  const count = async () => (await server.request('GET', '/api/tasks')).body.data.pagination.total;

  it('stops a DNS-rebinding page: 403 Host not allowed on every path, nothing changed', async () => {
    const evil = { host: `evil.example.com:${port()}`, origin: `http://evil.example.com:${port()}` };
    const json = { ...evil, 'content-type': 'application/json' };
    const tasks = await count();
    const writes: Array<[string, string, string]> = [
      ['POST', '/api/tasks', JSON.stringify({ title: 'planted' })],
      ['POST', '/api/webhooks', JSON.stringify({ url: 'http://127.0.0.1:9/x', events: ['task.created'] })],
      ['POST', '/settings-api/api/token', JSON.stringify({ token: 'locks-the-owner-out' })],
      ['PUT', '/settings-api/api', JSON.stringify({ enabled: false })],
    ];
    for (const [method, p, body] of writes) {
      const res = await raw(server, method, p, json, body);
      assert.equal(res.status, 403, `${method} ${p}`);
      assert.deepEqual(JSON.parse(res.body), { success: false, error: 'Host not allowed' });
    }
    for (const p of ['/', '/assets/app.js', '/api/health', '/api/docs', '/mcp', '/api/events', '/nope']) {
      assert.equal((await raw(server, 'GET', p, { host: evil.host })).status, 403, p);
    }
    assert.equal((await raw(server, 'OPTIONS', '/api/tasks', evil)).status, 403);
    assert.equal(await count(), tasks);
    assert.equal((await server.request('GET', '/api/webhooks')).body.data.total, 0);
    const api = await server.request('GET', '/settings-api/api');
    assert.equal(api.status, 200, 'no token was set');
    assert.equal(api.body.data.apiEnabled, true);
    assert.equal(api.body.data.tokenSet, false);
  });

  it('accepts the loopback names with any port', async () => {
    for (const host of [`localhost:${port()}`, `127.0.0.1:${port()}`, `[::1]:${port()}`, 'localhost']) {
      assert.equal((await raw(server, 'GET', '/api/health', { host })).status, 200, host);
    }
  });

  it('lets cross-site simple requests change nothing, whatever their content type', async () => {
    const tasks = await count();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=b',
    ]) {
      const foreign = await raw(
        server,
        'POST',
        '/api/tasks',
        { 'content-type': type, origin: 'https://evil.example' },
        JSON.stringify({ title: 'planted' }),
      );
      assert.equal(foreign.status, 403, type);
      const noOrigin = await raw(
        server,
        'POST',
        '/api/tasks',
        { 'content-type': type, 'sec-fetch-site': 'cross-site' },
        JSON.stringify({ title: 'planted' }),
      );
      assert.equal(noOrigin.status, 403, `${type} without Origin`);
    }
    assert.equal(await count(), tasks);
  });
});

describe('--allowed-hosts and non-loopback binds', () => {
  it('answers to the names given by flag or environment (reverse proxies)', async () => {
    for (const options of [
      { args: ['--allowed-hosts', 'tasks.example.com,.home.arpa'] },
      { env: { TASKDOWN_ALLOWED_HOSTS: 'tasks.example.com,.home.arpa' } },
    ]) {
      const server = await startTestServer(options);
      try {
        for (const host of ['tasks.example.com', 'nas.home.arpa:8443']) {
          const res = await raw(server, 'GET', '/api/health', { host, origin: `https://${host}` });
          assert.equal(res.status, 200, host);
          assert.equal(res.headers['access-control-allow-origin'], `https://${host}`);
        }
        assert.equal((await raw(server, 'GET', '/api/health', { host: 'other.example.com' })).status, 403);
      } finally {
        await server.cleanup();
      }
    }
  });

  it('bound to all addresses with a token: the settings page works from a LAN address, foreign names do not', async () => {
    const server = await startTestServer({ host: '0.0.0.0', token: TOKEN });
    try {
      const port = new URL(server.url).port;
      const lan = `192.168.1.5:${port}`;
      assert.equal((await raw(server, 'GET', '/', { host: lan })).status, 200);
      const backend = await raw(server, 'GET', '/settings-api/api', {
        host: lan,
        origin: `http://${lan}`,
        authorization: `Bearer ${TOKEN}`,
      });
      assert.equal(backend.status, 200);
      assert.equal((await raw(server, 'GET', '/', { host: `evil.example.com:${port}` })).status, 403);
    } finally {
      await server.cleanup();
    }
  });

  it('refuses a malformed --allowed-hosts with exit 2', async () => {
    const vault = await tempDir('taskdown-vault-');
    try {
      const res = await runCli(['serve', '--vault', vault.dir, '--allowed-hosts', 'ok.example,bad host']);
      assert.equal(res.code, 2);
      assert.match(res.stderr, /invalid allowed host "bad host"/);
    } finally {
      await vault.cleanup();
    }
  });
});

describe('--token-file and the wrong-token lockout', () => {
  let dir: { dir: string; cleanup(): Promise<void> };
  before(async () => {
    dir = await tempDir('taskdown-token-');
  });
  after(() => dir.cleanup());

  it('reads the token from a file given by flag or environment, without its trailing newline', async () => {
    const file = path.join(dir.dir, 'token');
    await writeFile(file, 'from-a-file\n', { mode: 0o600 });
    for (const options of [{ args: ['--token-file', file] }, { env: { TASKDOWN_TOKEN_FILE: file } }]) {
      const server = await startTestServer(options);
      try {
        assert.equal((await server.request('GET', '/api/health')).status, 401);
        const ok = await server.request('GET', '/api/health', undefined, {
          authorization: 'Bearer from-a-file',
        });
        assert.equal(ok.status, 200);
        assert.ok(!server.stderr().includes('from-a-file'));
      } finally {
        await server.cleanup();
      }
    }
  });

  it('exits 2 with one clear line for a missing, unreadable or empty token file', async () => {
    const vault = await tempDir('taskdown-vault-');
    const empty = path.join(dir.dir, 'empty');
    await writeFile(empty, '\n');
    const locked = path.join(dir.dir, 'locked');
    await writeFile(locked, 'secret\n');
    await chmod(locked, 0o000);
    try {
      const cases: Array<[string[], Record<string, string>, RegExp]> = [
        [['--token-file', path.join(dir.dir, 'missing')], {}, /cannot read token file .*missing \(ENOENT\)/],
        [['--token-file', empty], {}, /token file .*empty is empty/],
        [[], { TASKDOWN_TOKEN_FILE: empty }, /token file .*empty is empty/],
        [['--token', 'x', '--token-file', empty], {}, /not both/],
      ];
      // root reads any file whatever its mode
      if (process.getuid?.() !== 0)
        cases.push([['--token-file', locked], {}, /cannot read token file .*\(EACCES\)/]);
      for (const [args, env, message] of cases) {
        const res = await runCli(['serve', '--vault', vault.dir, '--port', '0', ...args], env);
        assert.equal(res.code, 2, `${args.join(' ')} ${JSON.stringify(env)}: ${res.stderr}`);
        assert.match(res.stderr, message);
        assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
      }
    } finally {
      await vault.cleanup();
    }
  });

  it('answers 429 with Retry-After after repeated wrong tokens and logs the lockout once', async () => {
    const server = await startTestServer({ token: TOKEN, env: { TASKDOWN_LOG_LEVEL: 'warn' } });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 15; i++) {
        const res = await server.request('GET', '/api/health', undefined, {
          authorization: `Bearer guess-${i}`,
        });
        statuses.push(res.status);
        retryAfter ??= res.headers.get('retry-after');
      }
      assert.deepEqual(statuses, [...Array(10).fill(401), ...Array(5).fill(429)]);
      assert.ok(Number(retryAfter) > 0 && Number(retryAfter) <= 60, String(retryAfter));
      const locked = await server.request('GET', '/api/health', undefined, {
        authorization: `Bearer ${TOKEN}`,
      });
      assert.equal(locked.status, 429, 'the same client waits, even with the right token');
      // The log is written asynchronously: wait for the line before counting it.
      await waitFor(() => /wrong tokens from/.test(server.stderr()));
      assert.equal(server.stderr().match(/wrong tokens from/g)?.length, 1, server.stderr());
    } finally {
      await server.cleanup();
    }
  });
});
