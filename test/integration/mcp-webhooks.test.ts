/**
 * The webhook tools over `POST /mcp` against the built server and a real receiver: one tool per
 * webhook route (get, create, update, delete, ping, rotate-secret, the delivery log with its
 * filters, one delivery, redeliver), answering what the route answers, with the route's error
 * messages as tool errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Webhook } from 'standardwebhooks';
import { toolJson } from '../helpers/mcp.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

const TOKEN = 'mcp-webhooks-token';
const AUTH = { Authorization: `Bearer ${TOKEN}` };

describe('MCP webhook tools', () => {
  let server: TestServer;
  let receiver: Receiver;
  let client: Client;

  before(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ token: TOKEN });
    client = new Client({ name: 'taskdown-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: AUTH } }),
    );
  });
  after(async () => {
    await client.close();
    await server.cleanup();
    await receiver.close();
  });

  const call = async (name: string, args: Record<string, unknown>, isError = false): Promise<any> =>
    toolJson(await client.callTool({ name, arguments: args }), isError);
  const api = async (method: string, url: string, body?: unknown): Promise<any> =>
    (await server.request(method, url, body, AUTH)).body;

  /** The tool's error is the route's error for the same input. */
  async function sameError(
    tool: string,
    args: Record<string, unknown>,
    method: string,
    url: string,
    body?: unknown,
  ): Promise<string> {
    const viaTool = await call(tool, args, true);
    const viaApi = await api(method, url, body);
    assert.equal(viaApi.success, false, `${method} ${url}`);
    assert.deepEqual(viaTool, { error: viaApi.error }, tool);
    return viaTool.error;
  }

  it('manages a webhook and its deliveries like the routes do', async () => {
    const { webhook } = await call('tasknotes_create_webhook', {
      url: receiver.url,
      events: ['task.created'],
      signing: 'standard',
      retrySchedule: [1],
    });
    assert.match(webhook.secret, /^whsec_/);
    assert.deepEqual(webhook.retrySchedule, [1]);
    const id = webhook.id as string;

    const got = await call('tasknotes_get_webhook', { id });
    assert.deepEqual(got, (await api('GET', `/api/webhooks/${id}`)).data);
    assert.equal(got.webhook.secret, undefined);

    const paused = await call('tasknotes_update_webhook', { id, active: false, events: ['task.updated'] });
    assert.equal(paused.webhook.active, false);
    assert.deepEqual(paused.webhook.events, ['task.updated']);
    assert.equal(
      await sameError('tasknotes_ping_webhook', { id }, 'POST', `/api/webhooks/${id}/ping`),
      'Webhook is inactive; enable it first',
    );
    const resumed = await call('tasknotes_update_webhook', { id, active: true });
    assert.equal(resumed.webhook.active, true);
    assert.deepEqual(resumed.webhook.events, ['task.updated'], 'fields not named stay');

    const pinged = await call('tasknotes_ping_webhook', { id });
    assert.equal(pinged.delivery.event, 'webhook.ping');
    const [first] = await receiver.waitFor(1);
    assert.equal(first?.headers['webhook-id'], pinged.delivery.id);
    new Webhook(webhook.secret).verify(first!.raw.toString('utf8'), first!.headers as Record<string, string>);

    let detail: any;
    for (let i = 0; i < 200; i++) {
      detail = await call('tasknotes_get_webhook_delivery', { id: pinged.delivery.id });
      if (detail.delivery.status === 'success') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(detail.delivery.status, 'success');
    assert.equal(detail.delivery.attemptLog.length, 1);
    assert.equal(detail.delivery.attemptLog[0].responseStatus, 200);
    assert.deepEqual(detail, (await api('GET', `/api/webhooks/deliveries/${pinged.delivery.id}`)).data);

    const filtered = await call('tasknotes_get_webhook_deliveries', {
      webhookId: id,
      status: 'success',
      limit: 5,
    });
    assert.deepEqual(
      filtered,
      (await api('GET', `/api/webhooks/deliveries?webhookId=${id}&status=success&limit=5`)).data,
    );
    assert.deepEqual(
      filtered.deliveries.map((d: { id: string }) => d.id),
      [pinged.delivery.id],
    );
    const none = await call('tasknotes_get_webhook_deliveries', { webhookId: id, status: 'failed' });
    assert.deepEqual(none, { deliveries: [], total: 0, hasMore: false });

    const again = await call('tasknotes_redeliver_webhook_delivery', { id: pinged.delivery.id });
    assert.equal(again.delivery.id, pinged.delivery.id);
    const [, second] = await receiver.waitFor(2);
    assert.equal(second?.headers['webhook-id'], pinged.delivery.id);
    assert.equal(second?.raw.toString('utf8'), first?.raw.toString('utf8'), 'the same payload again');

    const rotated = await call('tasknotes_rotate_webhook_secret', { id, graceSeconds: 60 });
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, webhook.secret);
    assert.ok(Date.parse(rotated.previousSecretExpiresAt) > Date.now());

    assert.deepEqual(await call('tasknotes_delete_webhook', { id }), { deleted: true, id });
    assert.deepEqual((await api('GET', '/api/webhooks')).data, { webhooks: [], total: 0 });
  });

  it('answers the routes’ messages as tool errors', async () => {
    const { webhook } = await call('tasknotes_create_webhook', {
      url: receiver.url,
      events: ['task.created'],
    });
    const id = webhook.id as string;
    const cases: Array<[string, Record<string, unknown>, string, string, unknown?]> = [
      ['tasknotes_get_webhook', { id: 'wh_nope' }, 'GET', '/api/webhooks/wh_nope'],
      [
        'tasknotes_update_webhook',
        { id: 'wh_nope', active: true },
        'PATCH',
        '/api/webhooks/wh_nope',
        { active: true },
      ],
      ['tasknotes_delete_webhook', { id: 'wh_nope' }, 'DELETE', '/api/webhooks/wh_nope'],
      ['tasknotes_ping_webhook', { id: 'wh_nope' }, 'POST', '/api/webhooks/wh_nope/ping'],
      [
        'tasknotes_rotate_webhook_secret',
        { id: 'wh_nope' },
        'POST',
        '/api/webhooks/wh_nope/rotate-secret',
        {},
      ],
      ['tasknotes_get_webhook_delivery', { id: 'del_nope' }, 'GET', '/api/webhooks/deliveries/del_nope'],
      [
        'tasknotes_redeliver_webhook_delivery',
        { id: 'del_nope' },
        'POST',
        '/api/webhooks/deliveries/del_nope/redeliver',
      ],
      [
        'tasknotes_create_webhook',
        { url: receiver.url, events: ['task.nothing'] },
        'POST',
        '/api/webhooks',
        { url: receiver.url, events: ['task.nothing'] },
      ],
      [
        'tasknotes_update_webhook',
        { id, url: 'ftp://example.invalid/' },
        'PATCH',
        `/api/webhooks/${id}`,
        { url: 'ftp://example.invalid/' },
      ],
      [
        'tasknotes_update_webhook',
        { id, retrySchedule: [0] },
        'PATCH',
        `/api/webhooks/${id}`,
        { retrySchedule: [0] },
      ],
      [
        'tasknotes_update_webhook',
        { id, signing: 'hmac' },
        'PATCH',
        `/api/webhooks/${id}`,
        { signing: 'hmac' },
      ],
      [
        'tasknotes_rotate_webhook_secret',
        { id, graceSeconds: -1 },
        'POST',
        `/api/webhooks/${id}/rotate-secret`,
        { graceSeconds: -1 },
      ],
      ['tasknotes_get_webhook_deliveries', { status: 'done' }, 'GET', '/api/webhooks/deliveries?status=done'],
      ['tasknotes_get_webhook_deliveries', { limit: 0 }, 'GET', '/api/webhooks/deliveries?limit=0'],
      ['tasknotes_get_webhook_deliveries', { limit: 1001 }, 'GET', '/api/webhooks/deliveries?limit=1001'],
      [
        'tasknotes_get_webhook_deliveries',
        { before: 'del_nope' },
        'GET',
        '/api/webhooks/deliveries?before=del_nope',
      ],
    ];
    const messages = [];
    for (const [tool, args, method, url, body] of cases)
      messages.push(await sameError(tool, args, method, url, body));
    assert.deepEqual(messages.slice(0, 7), [
      'Webhook not found',
      'Webhook not found',
      'Webhook not found',
      'Webhook not found',
      'Webhook not found',
      'Delivery not found',
      'Delivery not found',
    ]);
    assert.deepEqual(messages.slice(12), [
      'status must be "pending", "success" or "failed"',
      'limit must be an integer from 1 to 1000',
      'limit must be an integer from 1 to 1000',
      'before: no delivery del_nope',
    ]);
    assert.deepEqual(
      (await api('GET', `/api/webhooks/${id}`)).data.webhook,
      (await call('tasknotes_get_webhook', { id })).webhook,
      'nothing changed',
    );
  });
});
