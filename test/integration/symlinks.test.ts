/**
 * Symbolic links in the vault against the real server (docs/vault-safety.md): nothing outside
 * the vault is ever read or written through a link, whether it is a note, a folder, a transform
 * file, an ICS file or the plugin's settings; a note that links to a file inside the vault is
 * read and written through, and stays a link.
 */
import assert from 'node:assert/strict';
import { lstat, mkdir, readFile, readdir, readlink, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { encodeId, startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';
import { tempDir, writeFiles } from '../helpers/temp.js';

const note = (title: string, extra = ''): string =>
  `---\ntitle: ${title}\nstatus: open\ntags:\n  - task\n${extra}---\n\n${title} body\n`;

const SECRET = 'root:x:0:0:SECRET-OUTSIDE-THE-VAULT';
const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//test//EN',
  'BEGIN:VEVENT',
  'UID:outside-1',
  'DTSTAMP:20260101T000000Z',
  'DTSTART:20260115T090000Z',
  'DTEND:20260115T100000Z',
  'SUMMARY:Outside meeting',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

const taskPath = (id: string): string => `/api/tasks/${encodeId(id)}`;

describe('symbolic links in the vault', () => {
  let server: TestServer;
  let outside: Awaited<ReturnType<typeof tempDir>>;
  let vault: Awaited<ReturnType<typeof tempDir>>;
  let receiver: Receiver;
  const outsideFiles: Record<string, string> = {
    'Folder/Out.md': note('Out'),
    'Secret.md': note('Secret'),
    'passwd.json': SECRET,
    'calendar.ics': ICS,
    'data.json': JSON.stringify({
      customStatuses: [{ value: 'outside-status', label: 'X', isCompleted: false }],
    }),
    'Trash/keep.txt': 'x',
    'Tasks/keep.txt': 'x',
  };

  before(async () => {
    outside = await tempDir('taskdown-outside-');
    vault = await tempDir('taskdown-links-vault-');
    await writeFiles(outside.dir, outsideFiles);
    await writeFiles(vault.dir, {
      'Real/Plain.md': note('Plain'),
      '.shared/Target.md': note('Target'),
      'Other/Inside.md': note('Inside'),
    });
    const v = (rel: string): string => path.join(vault.dir, rel);
    const o = (rel: string): string => path.join(outside.dir, rel);
    await symlink(o('Folder'), v('LinkedOut'));
    await symlink(v('Other'), v('LinkedIn'));
    await mkdir(v('Notes'));
    await symlink(o('Secret.md'), v('Notes/Leak.md'));
    await symlink('../.shared/Target.md', v('Notes/Alias.md'));
    await symlink(v('.obsidian-missing/none.md'), v('Notes/Dangling.md'));
    await mkdir(v('hooks'));
    await symlink(o('passwd.json'), v('hooks/t.json'));
    await mkdir(v('Calendars'));
    await symlink(o('calendar.ics'), v('Calendars/out.ics'));
    await mkdir(v('.obsidian/plugins/tasknotes'), { recursive: true });
    await symlink(o('data.json'), v('.obsidian/plugins/tasknotes/data.json'));
    await symlink(o('Trash'), v('.trash'));
    // The default tasks folder, TaskNotes/Tasks, lies behind a folder link that leads out.
    await symlink(o('Tasks'), v('TaskNotes'));
    receiver = await startReceiver();
    server = await startTestServer({ vault: vault.dir });
  });
  after(async () => {
    await server.cleanup();
    await receiver.close();
    await vault.cleanup();
    await outside.cleanup();
  });

  const outsideUnchanged = async (): Promise<void> => {
    for (const [rel, text] of Object.entries(outsideFiles)) {
      assert.equal(await readFile(path.join(outside.dir, rel), 'utf8'), text, `${rel} changed`);
    }
    assert.deepEqual((await readdir(path.join(outside.dir, 'Folder'))).sort(), ['Out.md']);
    assert.deepEqual(await readdir(path.join(outside.dir, 'Trash')), ['keep.txt']);
    assert.deepEqual(await readdir(path.join(outside.dir, 'Tasks')), ['keep.txt']);
  };

  it('lists real notes and in-vault file links only, never what a link leads out to', async () => {
    const res = await server.request('GET', '/api/tasks');
    assert.equal(res.status, 200);
    const ids = res.body.data.tasks.map((t: { id: string }) => t.id).sort();
    assert.deepEqual(ids, ['Notes/Alias.md', 'Other/Inside.md', 'Real/Plain.md']);
  });

  it('answers 404 for notes reached through a link out, a folder link or a dangling link, and changes nothing', async () => {
    for (const id of ['LinkedOut/Out.md', 'Notes/Leak.md', 'LinkedIn/Inside.md', 'Notes/Dangling.md']) {
      assert.equal((await server.request('GET', taskPath(id))).status, 404, `GET ${id}`);
      const put = await server.request('PUT', taskPath(id), { title: 'Renamed', priority: 'high' });
      assert.equal(put.status, 404, `PUT ${id}`);
      assert.equal(
        (await server.request('POST', `${taskPath(id)}/toggle-status`)).status,
        404,
        `toggle ${id}`,
      );
      assert.equal((await server.request('DELETE', taskPath(id))).status, 404, `DELETE ${id}`);
    }
    await outsideUnchanged();
    assert.equal((await lstat(path.join(vault.dir, 'Notes/Leak.md'))).isSymbolicLink(), true);
  });

  it('writes a note that links inside the vault through to its target; the link stays a link', async () => {
    const res = await server.request('PUT', taskPath('Notes/Alias.md'), { priority: 'high' });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.priority, 'high');
    const link = path.join(vault.dir, 'Notes/Alias.md');
    assert.equal((await lstat(link)).isSymbolicLink(), true);
    assert.equal(await readlink(link), '../.shared/Target.md');
    assert.match(await readFile(path.join(vault.dir, '.shared/Target.md'), 'utf8'), /priority: high/);
  });

  it("picks up another program's edit of a link's target", async () => {
    const target = path.join(vault.dir, '.shared/Target.md');
    await writeFile(target, note('Target', 'priority: low\n'));
    await waitFor(
      async () => (await server.request('GET', taskPath('Notes/Alias.md'))).body.data?.priority === 'low',
    );
  });

  it('refuses to create into a folder link and to trash through a linked .trash (400, nothing moved)', async () => {
    const plain = await server.request('DELETE', taskPath('Real/Plain.md'));
    assert.equal(plain.status, 400);
    assert.match(plain.body.error, /symbolic link/);
    assert.doesNotMatch(plain.body.error, new RegExp(path.basename(outside.dir)));
    assert.equal(await readFile(path.join(vault.dir, 'Real/Plain.md'), 'utf8'), note('Plain'));

    const created = await server.request('POST', '/api/tasks', { title: 'Escapee', status: 'open' });
    assert.equal(created.status, 400);
    assert.match(created.body.error, /^Cannot write TaskNotes\/Tasks\/Escapee\.md: .*symbolic link/);
    await outsideUnchanged();
  });

  it('never reads a transform file that links out, and says nothing of its content', async () => {
    const hook = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: ['task.updated'],
      transformFile: 'hooks/t.json',
    });
    assert.equal(hook.status, 201);
    await server.request('PUT', taskPath('Other/Inside.md'), { priority: 'low' });
    await receiver.waitFor(1);
    const deliveries = await waitFor(async () => {
      const res = await server.request('GET', '/api/webhooks/deliveries');
      // transformError is recorded with the attempt's outcome.
      return res.body.data.deliveries[0]?.transformError !== undefined ? res.body.data.deliveries : undefined;
    });
    const transformError = String(deliveries[0].transformError);
    assert.match(transformError, /symbolic link/);
    assert.doesNotMatch(JSON.stringify(deliveries), /root|SECRET/);
    assert.equal(receiver.requests[0]?.body.event, 'task.updated');
  });

  it('never reads an ICS file that links out', async () => {
    const sub = await server.request('POST', '/settings-api/calendars/subscriptions', {
      name: 'Outside',
      type: 'local',
      filePath: 'Calendars/out.ics',
      color: '#123456',
      enabled: true,
      refreshInterval: 60,
    });
    assert.equal(sub.status < 300, true, JSON.stringify(sub.body));
    const events = await server.request('GET', '/api/calendars/events?start=2026-01-01&end=2026-02-01');
    assert.equal(events.status, 200);
    assert.doesNotMatch(JSON.stringify(events.body), /Outside meeting/);
    const subs = await server.request('GET', '/api/calendars/subscriptions');
    const local = subs.body.data.subscriptions.find(
      (s: { filePath?: string }) => s.filePath === 'Calendars/out.ics',
    );
    assert.match(String(local.lastError), /symbolic link/);
    assert.doesNotMatch(JSON.stringify(subs.body), /Outside meeting|calendar\.ics/);
  });

  it('uses TaskNotes defaults when the plugin settings link out of the vault', async () => {
    const options = await server.request('GET', '/api/filter-options');
    assert.equal(options.status, 200);
    assert.doesNotMatch(JSON.stringify(options.body), /outside-status/);
    assert.match(server.stderr(), /data\.json: it is reached through a symbolic link/);
  });
});
