/**
 * The pomodoro reads its durations from the vault's TaskNotes data.json, as it stands when a
 * session starts (an edit applies to the next session without a restart).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';

const DATA_JSON = '.obsidian/plugins/tasknotes/data.json';

describe('pomodoro settings from data.json (real server)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      files: { [DATA_JSON]: JSON.stringify({ pomodoroWorkDuration: 50, pomodoroShortBreakDuration: 10 }) },
    });
  });
  after(() => server?.cleanup());

  it('starts a work session of the configured length when no duration is given', async () => {
    const idle = await server.request('GET', '/api/pomodoro/status');
    assert.equal(idle.body.data.timeRemaining, 3000);
    const res = await server.request('POST', '/api/pomodoro/start', {});
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.session.plannedDuration, 50);
    const stop = await server.request('POST', '/api/pomodoro/stop');
    assert.equal(stop.status, 200, stop.text);
    const reset = await server.request('GET', '/api/pomodoro/status');
    assert.equal(reset.body.data.timeRemaining, 3000);
  });

  it('uses an edited data.json for the next session without a restart', async () => {
    await writeFile(path.join(server.vault, DATA_JSON), JSON.stringify({ pomodoroWorkDuration: 40 }));
    const planned = await waitFor(async () => {
      const res = await server.request('POST', '/api/pomodoro/start', {});
      assert.equal(res.status, 200, res.text);
      await server.request('POST', '/api/pomodoro/stop');
      return res.body.data.session.plannedDuration === 40 ? 40 : undefined;
    });
    assert.equal(planned, 40);
  });
});
