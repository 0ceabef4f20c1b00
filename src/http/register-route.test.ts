/** Route registration: a change whose events could not be recorded is not answered as a success. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { shellWith } from '../../test/helpers/http-shell.js';
import { tempDir } from '../../test/helpers/temp.js';
import { silentLogger } from '../core/logger.js';
import { openStore } from '../core/store/database.js';
import { EventJournal, EVENTS_LOST } from '../core/store/event-journal.js';
import type { AppContext } from './context.js';
import { defineRoute, ok } from './route.js';

describe('registered routes', () => {
  it('answer 503 for a change whose events could not be committed, and go on once they can', async () => {
    const dir = await tempDir('taskdown-lost-');
    const store = openStore(dir.dir);
    const journal = new EventJournal(store, { name: 'v', path: '/v' }, silentLogger);
    let failCommit = true;
    const change = defineRoute({
      method: 'POST',
      url: '/api/change',
      summary: 'emits an event',
      tags: ['test'],
      responses: { 200: Type.Null() },
      handler: async () => {
        // The data dir's disk is full: the commit of this turn's writes fails.
        if (failCommit) {
          store.beforeCommit(() => {
            throw new Error('SQLITE_FULL: database or disk is full');
          });
        }
        journal.append('task.created', { n: 1 }, Date.now());
        return ok(null);
      },
    });
    const { app } = await shellWith([change], {
      ctx: { services: { journal } } as unknown as AppContext,
    });
    try {
      const lost = await app.inject({ method: 'POST', url: '/api/change', payload: {} });
      assert.equal(lost.statusCode, 503);
      assert.deepEqual(lost.json(), { success: false, error: EVENTS_LOST });
      failCommit = false;
      const kept = await app.inject({ method: 'POST', url: '/api/change', payload: {} });
      assert.equal(kept.statusCode, 200);
      assert.equal(journal.eventsSince(0).length, 1);
    } finally {
      await app.close();
      await store.close();
      await dir.cleanup();
    }
  });
});
