/**
 * Webhook management while the data dir cannot be written (its disk full): a change whose commit
 * fails is answered 503 and is not kept in memory either, so what the server lists is what a
 * restart would find. In process (src/app.ts), so the next commit can be made to fail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../src/core/clock.js';
import { CHANGE_NOT_SAVED } from '../../src/core/store/event-journal.js';
import { failNextCommit, startInProcessServer, type InProcessServer } from '../helpers/in-process-server.js';

describe('webhook changes the store cannot commit', () => {
  let server: InProcessServer;
  const listed = async (): Promise<Array<{ id: string; active: boolean }>> =>
    (await server.request('GET', '/api/webhooks')).body.data.webhooks;
  const hook = (id: string) => ({ id, url: 'http://127.0.0.1:9/hook', events: ['task.created'] });

  before(async () => {
    server = await startInProcessServer({ clock: systemClock });
  });
  after(() => server.cleanup());

  it('answers 503 and keeps nothing of a registration, a switch or a removal', async () => {
    failNextCommit(server);
    const created = await server.request('POST', '/api/webhooks', hook('wh_new'));
    assert.equal(created.status, 503);
    assert.deepEqual(created.body, { success: false, error: CHANGE_NOT_SAVED });
    assert.deepEqual(await listed(), []);

    assert.equal((await server.request('POST', '/api/webhooks', hook('wh_kept'))).status, 201);
    failNextCommit(server);
    const off = await server.request('PATCH', '/api/webhooks/wh_kept', { active: false });
    assert.equal(off.status, 503);
    failNextCommit(server);
    const removed = await server.request('DELETE', '/api/webhooks/wh_kept');
    assert.equal(removed.status, 503);
    assert.deepEqual(
      (await listed()).map((w) => [w.id, w.active]),
      [['wh_kept', true]],
    );

    await server.restart();
    assert.deepEqual(
      (await listed()).map((w) => [w.id, w.active]),
      [['wh_kept', true]],
    );
  });
});
