/**
 * The vault folder moved away while the built server runs (an unmount does the same to it), then
 * back: no `task.deleted` webhook for the notes it holds, health says the vault is unavailable,
 * reads answer the tasks as they were, writes 503, and once it is back what changed meanwhile is
 * delivered.
 */
import assert from 'node:assert/strict';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { encodeId, startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';

const note = (title: string): string => `---\ntitle: ${title}\nstatus: open\ntags:\n  - task\n---\n`;

describe('the vault folder moved away while serving (real server)', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ files: { 'One.md': note('One'), 'Two.md': note('Two') } });
    const hook = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: ['task.created', 'task.updated', 'task.deleted'],
    });
    assert.equal(hook.status, 201);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  const available = async (): Promise<boolean> =>
    (await server.request('GET', '/api/health')).body.data.vault.available as boolean;
  const delivered = (): string[] => receiver.requests.map((r) => `${r.body.event} ${r.body.data.task.path}`);

  it('serves the tasks as they were, refuses the rest with 503, and delivers what changed once back', async () => {
    assert.equal(await available(), true);
    const away = `${server.vault}.away`;
    await rename(server.vault, away);
    try {
      await waitFor(async () => !(await available()));
      const gone = new RegExp(`^the vault folder ${server.vault} is gone \\(moved or unmounted\\)`);

      const list = await server.request('GET', '/api/tasks');
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.data.tasks.map((t: { path: string }) => t.path),
        ['One.md', 'Two.md'],
      );
      const one = await server.request('GET', `/api/tasks/${encodeId('One.md')}`);
      assert.equal(one.status, 200);
      assert.equal(one.body.data.title, 'One');
      const put = await server.request('PUT', `/api/tasks/${encodeId('One.md')}`, { priority: 'high' });
      assert.equal(put.status, 503);
      assert.match(put.body.error, gone);
      const created = await server.request('POST', '/api/tasks', { title: 'Three' });
      assert.equal(created.status, 503);
      const deleted = await server.request('DELETE', `/api/tasks/${encodeId('Two.md')}`);
      assert.equal(deleted.status, 503);

      // Another program edits a note where the folder went: not the vault while it is away.
      await writeFile(path.join(away, 'One.md'), note('One, edited'));
      await new Promise((r) => setTimeout(r, 1_500));
      assert.deepEqual(delivered(), []);
    } finally {
      await rename(away, server.vault);
    }

    await waitFor(() => available());
    await receiver.waitFor(1);
    await writeFile(path.join(server.vault, 'Four.md'), note('Four'));
    await receiver.waitFor(2);
    assert.deepEqual(delivered(), ['task.updated One.md', 'task.created Four.md']);
    const one = await server.request('GET', `/api/tasks/${encodeId('One.md')}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.data.title, 'One, edited');
    assert.match(
      server.stderr(),
      /the vault folder is gone \(moved or unmounted\): serving the tasks as they were/,
    );
  });
});
