/**
 * kill -9 at arbitrary moments against the built server (docs/vault-safety.md): renames in flight
 * never leave a task as two notes (nor as none), the next start takes the lock over and removes
 * every temp file a kill left in the note folders and the data dir (state files: settings with
 * the token and calendar subscriptions, pomodoro state).
 * Also: an API rename is one task.updated, whatever the watcher sees of it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { encodeId, startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

const TASKS = 12;
const RUNS = 10;
const TEMP = /^\..+\.[0-9a-f]{12}\.tmp$/;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const note = (n: number): string =>
  `---\ntitle: Task ${n} a\nstatus: open\nmarker: m${n}\ntags:\n  - task\n---\n`;

/** Every file under `dir` (recursively), as paths relative to it. */
function filesUnder(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (skip(child)) continue;
      if (entry.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk('');
  return out;
}

/** Notes of the vault (not in .trash) holding each marker. */
function notesPerTask(vault: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const rel of filesUnder(vault, (r) => r === '.trash')) {
    if (!rel.endsWith('.md') || rel.split('/').some((s) => s.startsWith('.'))) continue;
    const marker = /^marker: (m\d+)$/m.exec(readFileSync(path.join(vault, rel), 'utf8'))?.[1];
    if (marker) found.set(marker, [...(found.get(marker) ?? []), rel]);
  }
  return found;
}

describe('kill -9 in the middle of renames and state writes (real server)', () => {
  let vault: Awaited<ReturnType<typeof tempDir>>;
  let data: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    vault = await tempDir('taskdown-crash-vault-');
    data = await tempDir('taskdown-crash-data-');
    const files: Record<string, string> = {};
    for (let n = 0; n < TASKS; n++) files[`Tasks/Task ${n} a.md`] = note(n);
    await writeFiles(vault.dir, files);
  });
  after(async () => {
    await vault.cleanup();
    await data.cleanup();
  });

  it(`leaves each task as exactly one note and no temp file after ${RUNS} kills`, async () => {
    let stateWrites = 0;
    let renames = 0;
    for (let run = 0; run < RUNS; run++) {
      const server = await startTestServer({ vault: vault.dir, dataDir: data.dir });
      // What the previous kill left was removed by this start.
      assert.deepEqual(
        filesUnder(vault.dir).filter((f) => TEMP.test(path.posix.basename(f))),
        [],
        `temp files in the vault at start ${run}`,
      );
      assert.deepEqual(
        filesUnder(data.dir).filter((f) => TEMP.test(path.posix.basename(f))),
        [],
        `temp files in the data dir at start ${run}`,
      );
      let killed = false;
      const rename = async (id: string, n: number): Promise<void> => {
        for (let k = 0; !killed; k++) {
          const title = `Task ${n} ${k % 2 === 0 ? 'b' : 'a'}`;
          const res = await server
            .request('PUT', `/api/tasks/${encodeId(id)}`, { title })
            .catch(() => undefined);
          if (res?.status !== 200) return;
          id = res.body.data.id;
          renames++;
        }
      };
      // State files in the data dir, written atomically on every change.
      const state = async (): Promise<void> => {
        for (let k = 0; !killed; k++) {
          const res = await server
            .request('POST', '/settings-api/calendars/subscriptions', {
              name: `Feed ${run}-${k}`,
              type: 'remote',
              url: `https://calendar.example/${run}-${k}.ics`,
              enabled: false,
            })
            .catch(() => undefined);
          if (res?.status !== 201) return;
          stateWrites++;
          const pomodoro = k % 2 === 0 ? '/api/pomodoro/start' : '/api/pomodoro/stop';
          await server.request('POST', pomodoro).catch(() => undefined);
        }
      };
      const list = (await server.request('GET', '/api/tasks?limit=200')).body.data.tasks as Array<{
        id: string;
      }>;
      const work = [...list.map((t) => rename(t.id, Number(/Task (\d+)/.exec(t.id)?.[1]))), state(), state()];
      // The kill lands while both kinds of write are under way, however slow the machine is: once
      // this run has done some of each, after a random further wait.
      const before = { renames, stateWrites };
      await waitFor(() => renames > before.renames && stateWrites > before.stateWrites, 20_000);
      await sleep(Math.random() * 600);
      killed = true;
      await server.stop('SIGKILL');
      await Promise.all(work);

      const perTask = notesPerTask(vault.dir);
      for (let n = 0; n < TASKS; n++) {
        assert.equal(perTask.get(`m${n}`)?.length, 1, `task ${n} after kill ${run}: ${perTask.get(`m${n}`)}`);
      }
    }
    assert.ok(renames >= RUNS && stateWrites >= RUNS, `${renames} renames, ${stateWrites} state writes`);

    const last = await startTestServer({ vault: vault.dir, dataDir: data.dir });
    try {
      assert.equal((await last.request('GET', '/api/tasks?limit=200')).body.data.tasks.length, TASKS);
      assert.deepEqual(
        [...filesUnder(vault.dir), ...filesUnder(data.dir)].filter((f) => TEMP.test(path.posix.basename(f))),
        [],
      );
    } finally {
      await last.cleanup();
    }
  });
});

describe('an API rename as another program sees it', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    server = await startTestServer({ files: { 'Tasks/Old name.md': note(1) } });
    const hook = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: ['task.created', 'task.updated', 'task.deleted', 'task.completed'],
    });
    assert.equal(hook.status, 201);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  it('is one task.updated, with one note left, also after the watcher has looked', async () => {
    const res = await server.request('PUT', `/api/tasks/${encodeId('Tasks/Old name.md')}`, {
      title: 'New name',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.id, 'Tasks/New name.md');
    await receiver.waitFor(1);
    await sleep(700); // the watcher's debounce and its second look at a vanished note
    assert.deepEqual(
      receiver.requests.map((r) => `${r.body.event} ${r.body.data.task.path}`),
      ['task.updated Tasks/New name.md'],
    );
    assert.deepEqual(readdirSync(path.join(server.vault, 'Tasks')), ['New name.md']);
  });
});
