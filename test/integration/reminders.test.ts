/**
 * Reminders end to end on the real server process: absolute and relative reminders fire on time
 * (within 1 s), edits and deletions re-plan them (by API and by an external edit), and restarts
 * neither lose nor repeat one; reminders missed while down fire when at most 15 minutes late.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { encodeId, startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';
import { writeFiles } from '../helpers/temp.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const note = (title: string, frontmatter = ''): string =>
  `---\ntitle: ${title}\nstatus: open\npriority: normal\ntags:\n  - task\n${frontmatter}---\n`;
const absoluteNote = (title: string, id: string, at: number): string =>
  note(title, `reminders:\n  - id: ${id}\n    type: absolute\n    absoluteTime: "${iso(at)}"\n`);
const dir = 'TaskNotes/Tasks';

describe('reminders (real server)', () => {
  let server: TestServer;
  let receiver: Receiver;
  const fired = () =>
    receiver.requests
      .filter((r) => r.body.event === 'reminder.triggered')
      .map((r) => ({ id: r.body.data.reminder.id as string, at: r.at, data: r.body.data }));
  const ids = () =>
    fired()
      .map((f) => f.id)
      .sort();
  const create = async (title: string, body: Record<string, unknown>): Promise<string> => {
    const res = await server.request('POST', '/api/tasks', { title, ...body });
    assert.equal(res.status, 201, res.text);
    return res.body.data.path as string;
  };

  before(async () => {
    server = await startTestServer({
      files: { [`${dir}/External.md`]: absoluteNote('External', 'ext', Date.now() + 3_600_000) },
    });
    receiver = await startReceiver();
    const hook = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: ['reminder.triggered'],
    });
    assert.equal(hook.status, 201, hook.text);
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
  });

  it('fires on time, follows edits and deletions, and fires each reminder once', async () => {
    const t0 = Date.now();
    await create('Absolute', { reminders: [{ id: 'abs', type: 'absolute', absoluteTime: iso(t0 + 2500) }] });
    await create('Relative', {
      due: iso(t0 + 3_600_000 + 3000),
      reminders: [{ id: 'rel', type: 'relative', relatedTo: 'due', offset: '-PT1H' }],
    });
    const edited = await create('Edited', {
      reminders: [{ id: 'edit', type: 'absolute', absoluteTime: iso(t0 + 2000) }],
    });
    const deleted = await create('Deleted', {
      reminders: [{ id: 'del', type: 'absolute', absoluteTime: iso(t0 + 2000) }],
    });
    const moved = await server.request('PUT', `/api/tasks/${encodeId(edited)}`, {
      reminders: [{ id: 'edit', type: 'absolute', absoluteTime: iso(t0 + 4500) }],
    });
    assert.equal(moved.status, 200, moved.text);
    const removed = await server.request('PUT', `/api/tasks/${encodeId(deleted)}`, { reminders: [] });
    assert.equal(removed.status, 200, removed.text);
    // Another program moves the external note's reminder from an hour away to in 4 s.
    await writeFile(path.join(server.vault, dir, 'External.md'), absoluteNote('External', 'ext', t0 + 4000));

    await waitFor(() => fired().length >= 4, 10_000);
    await new Promise((r) => setTimeout(r, 800)); // anything extra would show up now
    assert.deepEqual(ids(), ['abs', 'edit', 'ext', 'rel']);
    const due: Record<string, number> = { abs: t0 + 2500, rel: t0 + 3000, edit: t0 + 4500, ext: t0 + 4000 };
    for (const f of fired()) {
      const late = f.at - (due[f.id] as number);
      assert.ok(late >= -50 && late < 1000, `${f.id} fired ${late} ms from its time`);
      assert.equal(f.data.notificationTime, iso(due[f.id] as number));
      assert.equal(f.data.notificationType, 'system');
    }
    const rel = fired().find((f) => f.id === 'rel')?.data;
    assert.equal(rel.message, 'Relative is due in 1 hour');
    assert.deepEqual(rel.reminder, { id: 'rel', type: 'relative', relatedTo: 'due', offset: '-PT1H' });
    assert.equal(rel.task.title, 'Relative');
  });

  it('across a restart: keeps planned ones, fires missed ones up to 15 min late, skips older, repeats none', async () => {
    // Planned before the restart, due after it.
    const pendingAt = Date.now() + 6000;
    await create('Pending', {
      reminders: [{ id: 'pending', type: 'absolute', absoluteTime: iso(pendingAt) }],
    });
    assert.equal(await server.stop(), 0);
    const now = Date.now();
    await writeFiles(server.vault, {
      [`${dir}/Missed.md`]: absoluteNote('Missed', 'missed', now - 10 * 60_000),
      [`${dir}/Stale.md`]: absoluteNote('Stale', 'stale', now - 20 * 60_000),
      [`${dir}/Upcoming.md`]: absoluteNote('Upcoming', 'upcoming', now + 5000),
    });
    const before = fired().length;
    const restarted = await startTestServer({ vault: server.vault, dataDir: server.dataDir });
    const ready = Date.now();
    try {
      await waitFor(() => fired().length >= before + 3, 15_000);
      await new Promise((r) => setTimeout(r, 800));
      const fresh = fired().slice(before);
      assert.deepEqual(fresh.map((f) => f.id).sort(), ['missed', 'pending', 'upcoming']);
      for (const [id, at] of [
        ['upcoming', now + 5000],
        ['pending', pendingAt],
      ] as const) {
        const firedAt = (fresh.find((f) => f.id === id) as { at: number }).at;
        // On time when the server was up before the due time; otherwise caught up at start.
        const expected = Math.max(at, ready);
        assert.ok(
          firedAt >= at - 50 && firedAt - expected < 1000,
          `${id} fired ${firedAt - at} ms from its time`,
        );
      }
    } finally {
      await restarted.stop();
    }
  });
});
