/**
 * The event journal inside a running server: an API write's events are committed before the
 * response arrives, and they outlive a restart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../src/app.js';
import type { ServerConfig } from '../../src/config/config.js';
import { localConfig } from '../helpers/in-process-server.js';
import { tempDir } from '../helpers/temp.js';

describe('event journal in the server', () => {
  let vault: Awaited<ReturnType<typeof tempDir>>;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let config: ServerConfig;
  let server: RunningServer;
  before(async () => {
    vault = await tempDir('taskdown-ej-vault-');
    data = await tempDir('taskdown-ej-data-');
    config = localConfig(vault.dir, data.dir);
    server = await startServer(config);
  });
  after(async () => {
    await server.close();
    await vault.cleanup();
    await data.cleanup();
  });

  it('holds the events of a write when its response arrives, and keeps them across a restart', async () => {
    const { journal } = server.services;
    const before = journal.latestSeq();
    const res = await fetch(`${server.url}/api/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Journaled' }),
    });
    assert.equal(res.status, 201);
    // Read in the same turn as the response: nothing could have been appended later.
    const entries = journal.eventsSince(before);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['task.created'],
    );
    const envelope = JSON.parse(entries[0]!.envelope);
    assert.equal(envelope.data.task.title, 'Journaled');
    assert.deepEqual(envelope.vault, server.services.vaultInfo);

    await server.close();
    server = await startServer(config);
    assert.equal(server.services.journal.eventsSince(before)[0]?.envelope, entries[0]!.envelope);
    assert.equal(server.services.journal.latestSeq(), entries[0]!.seq);
  });
});
