/** TaskService on a real temp vault: writes, events, the watcher, settings reload, locking. */
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { DomainEvent } from '../../../src/core/events/bus.js';
import { EventBus } from '../../../src/core/events/bus.js';
import type { Logger } from '../../../src/core/logger.js';
import { isDomainError } from '../../../src/core/errors.js';
import { createHash } from 'node:crypto';
import { PRECONDITION_FAILED } from '../../../src/core/tasks/etag.js';
import { TaskService } from '../../../src/core/tasks/task-service.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const A = `---
# keep this comment
title: Alpha
status: open
due: 2025-01-15
custom_key: stays
blockedBy:
  - uid: "[[Beta]]"
    reltype: FINISHTOSTART
tags:
  - task
---

Alpha body
`;
const BETA = '---\nstatus: in-progress\ntags: [task]\n---\n';

interface Harness {
  vault: string;
  service: TaskService;
  events: DomainEvent[];
  warnings: string[];
  clock: ManualClock;
  cleanup(): Promise<void>;
}

async function open(files: Record<string, string> = {}): Promise<Harness> {
  const tmp = await tempDir('taskdown-svc-');
  await writeFiles(tmp.dir, files);
  const warnings: string[] = [];
  const log: Logger = {
    debug: () => {},
    info: () => {},
    warn: (obj, msg) => warnings.push(`${msg ?? ''} ${JSON.stringify(obj)}`),
    error: (obj, msg) => warnings.push(`ERROR ${msg ?? ''} ${JSON.stringify(obj)}`),
  };
  const clock = new ManualClock(new Date(2026, 0, 15, 9, 0, 0).getTime());
  const bus = new EventBus(clock, log);
  const events: DomainEvent[] = [];
  bus.onAny((e) => events.push(e));
  const service = await TaskService.open({
    vault: tmp.dir,
    dataDir: path.join(tmp.dir, '.taskdown'),
    events: bus,
    clock,
    log,
    stabilityMs: 30,
  });
  return {
    vault: tmp.dir,
    service,
    events,
    warnings,
    clock,
    async cleanup() {
      await service.stop();
      await tmp.cleanup();
    },
  };
}

async function waitFor(check: () => boolean, ms = 1000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** User fields sit at the top level of the (open) task object. */
const effortOf = (task: object): unknown => (task as Record<string, unknown>).effort;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const names = (h: Harness) => h.events.map((e) => e.name);

describe('TaskService', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await open({
      'TaskNotes/Tasks/Alpha.md': A,
      'TaskNotes/Tasks/Beta.md': BETA,
      'Notes/plain.md': '# not a task\n',
      'Notes/broken.md': '---\ntags: [task\nstatus: : :\n---\n',
      '.obsidian/hidden.md': '---\ntags: [task]\n---\n',
    });
  });
  afterEach(() => h.cleanup());

  it('indexes task notes only, skips broken YAML with a warning, computes blocking', () => {
    const list = h.service.list();
    assert.deepEqual(
      list.map((t) => t.id),
      ['TaskNotes/Tasks/Alpha.md', 'TaskNotes/Tasks/Beta.md'],
    );
    assert.ok(h.warnings.some((w) => w.includes('Notes/broken.md')));
    const [alpha, beta] = list;
    assert.equal(alpha!.isBlocked, true);
    assert.equal(beta!.isBlocking, true);
    assert.deepEqual(beta!.blocking, ['TaskNotes/Tasks/Alpha.md']);
    assert.equal(alpha!.details, undefined);
    assert.equal(h.service.resolveLink('[[beta]]')?.path, 'TaskNotes/Tasks/Beta.md');
    assert.equal(h.service.resolveLink('TaskNotes/Tasks/Alpha')?.path, 'TaskNotes/Tasks/Alpha.md');
  });

  it('get returns details; bad ids are INVALID, unknown ones NOT_FOUND', async () => {
    const task = await h.service.get('TaskNotes/Tasks/Alpha.md');
    assert.equal(task.details, 'Alpha body');
    for (const id of ['../x.md', '/etc/passwd', '.obsidian/hidden.md', '.taskdown/settings.json']) {
      await assert.rejects(h.service.get(id), (e) => isDomainError(e) && e.code === 'INVALID', id);
    }
    for (const id of ['Notes/plain.md', 'nope.md', 'TaskNotes/Tasks/Alpha.txt']) {
      await assert.rejects(h.service.get(id), (e) => isDomainError(e) && e.message === 'Task not found', id);
    }
  });

  it('creates the reference layout and emits task.created with the NLP source', async () => {
    const task = await h.service.create(
      { title: 'Review docs', priority: 'high' },
      { source: 'nlp', originalText: 't' },
    );
    assert.equal(task.id, 'TaskNotes/Tasks/Review docs.md');
    const text = await readFile(path.join(h.vault, task.path), 'utf8');
    assert.match(
      text,
      /^---\nstatus: open\npriority: high\nscheduled: 2026-01-15\ndateCreated: 2026-01-15T09:00:00\.000[+-]\d\d:\d\d\ndateModified: \S+\ntags:\n {2}- task\n---\n\n$/,
    );
    const again = await h.service.create({ title: 'Review docs' });
    assert.equal(again.path, 'TaskNotes/Tasks/Review docs-2.md');
    assert.match(await readFile(path.join(h.vault, again.path), 'utf8'), /^---\ntitle: Review docs\n/);
    assert.deepEqual(names(h), ['task.created', 'task.created']);
    assert.deepEqual(
      {
        source: (h.events[0]!.data as { source?: string }).source,
        text: (h.events[0]!.data as { originalText?: string }).originalText,
      },
      { source: 'nlp', text: 't' },
    );
    await assert.rejects(h.service.create({ title: '  ' }), /Title is required/);
  });

  it('update keeps comments and unknown keys, deletes with null/[], keeps the task tag', async () => {
    const updated = await h.service.update('TaskNotes/Tasks/Alpha.md', {
      due: null,
      contexts: ['@home'],
      tags: ['foo'],
      unknownTopLevel: 'ignored',
      customFrontmatter: { custom_key: null, added: 1 },
    });
    assert.deepEqual(updated.tags, ['task', 'foo']);
    assert.equal(updated.due, undefined);
    const text = await readFile(path.join(h.vault, 'TaskNotes/Tasks/Alpha.md'), 'utf8');
    assert.match(text, /^---\n# keep this comment\ntitle: Alpha\n/);
    assert.doesNotMatch(text, /due:|custom_key|unknownTopLevel/);
    assert.match(text, /added: 1/);
    assert.match(text, /\n---\n\nAlpha body\n$/);
    const cleared = await h.service.update('TaskNotes/Tasks/Alpha.md', { contexts: [] });
    assert.deepEqual(cleared.contexts, []);
    assert.doesNotMatch(await readFile(path.join(h.vault, 'TaskNotes/Tasks/Alpha.md'), 'utf8'), /contexts/);
    assert.deepEqual(names(h), ['task.updated', 'task.updated']);
    const first = h.events[0]!.data as { previous: { due?: string } };
    assert.equal(first.previous.due, '2025-01-15');
  });

  it('a move into a completed status emits only task.completed and sets completedDate', async () => {
    const done = await h.service.update('TaskNotes/Tasks/Beta.md', { status: 'Done' });
    assert.equal(done.status, 'done');
    assert.equal(done.completedDate, '2026-01-15');
    assert.deepEqual(names(h), ['task.completed']);
    const reopened = await h.service.toggleStatus('TaskNotes/Tasks/Beta.md');
    assert.equal(reopened.status, 'open');
    assert.equal(reopened.completedDate, undefined);
    const again = await h.service.toggleStatus('TaskNotes/Tasks/Beta.md');
    assert.equal(again.status, 'done');
    assert.deepEqual(names(h), ['task.completed', 'task.updated', 'task.completed']);
    // A completed blocker no longer blocks.
    assert.equal(h.service.find('TaskNotes/Tasks/Alpha.md')?.isBlocked, false);
  });

  it('keeps read shapes across edits that cannot change other tasks, and rebuilds them when one can', async () => {
    const alpha = 'TaskNotes/Tasks/Alpha.md';
    const beta = 'TaskNotes/Tasks/Beta.md';
    const first = h.service.list();
    assert.equal(first[0]!.isBlocked, true);
    // A priority change of the blocker: Alpha's read shape is reused as it was.
    await h.service.update(beta, { priority: 'high' });
    assert.equal(h.service.find(alpha), first[0]);
    assert.equal(h.service.find(beta)?.priority, 'high');
    // Completing the blocker (through the API) unblocks Alpha in lists, lookups and pages.
    await h.service.update(beta, { status: 'done' });
    assert.equal(h.service.list()[0]!.isBlocked, false);
    assert.equal(h.service.page(0, 1).tasks[0]!.isBlocked, false);
    assert.equal(h.service.find(beta)?.isBlocking, false);
    // Reopening it by an external edit blocks Alpha again.
    await writeFile(path.join(h.vault, beta), '---\nstatus: open\ntags: [task]\n---\n');
    await waitFor(() => h.service.find(alpha)?.isBlocked === true);
    assert.equal(h.service.list()[1]!.isBlocking, true);
    // Alpha dropping its dependency (external edit) ends Beta's blocking.
    await writeFile(path.join(h.vault, alpha), '---\ntitle: Alpha\nstatus: open\ntags: [task]\n---\n');
    await waitFor(() => h.service.find(beta)?.isBlocking === false);
    assert.deepEqual(h.service.find(beta)?.blocking, undefined);
  });

  it('renames on a title change and keeps a title that differs from the filename', async () => {
    const renamed = await h.service.update('TaskNotes/Tasks/Alpha.md', { title: 'What? Now' });
    assert.equal(renamed.id, 'TaskNotes/Tasks/What Now.md');
    assert.equal(renamed.title, 'What? Now');
    const text = await readFile(path.join(h.vault, 'TaskNotes/Tasks/What Now.md'), 'utf8');
    assert.match(text, /title: What\? Now/);
    await assert.rejects(readFile(path.join(h.vault, 'TaskNotes/Tasks/Alpha.md')));
    // An unrelated PUT keeps that title key.
    await h.service.update(renamed.id, { priority: 'low' });
    assert.equal(h.service.find(renamed.id)?.title, 'What? Now');
    const plain = await h.service.update(renamed.id, { title: 'Gamma' });
    assert.equal(plain.path, 'TaskNotes/Tasks/Gamma.md');
    assert.doesNotMatch(await readFile(path.join(h.vault, plain.path), 'utf8'), /title:/);
  });

  it('archive toggles the tag and emits only archived/unarchived', async () => {
    const archived = await h.service.toggleArchive('TaskNotes/Tasks/Beta.md');
    assert.equal(archived.archived, true);
    assert.deepEqual(archived.tags, ['task', 'archived']);
    const back = await h.service.toggleArchive('TaskNotes/Tasks/Beta.md');
    assert.equal(back.archived, false);
    assert.deepEqual(names(h), ['task.archived', 'task.unarchived']);
  });

  it('edit maps draft fields, passes raw keys, removes undefined ones, and can be silent', async () => {
    const { before, after } = await h.service.edit('TaskNotes/Tasks/Alpha.md', (d) => {
      d.timeEntries = [{ startTime: '2026-01-15T08:00:00Z', endTime: '2026-01-15T09:00:00Z' }];
      d.custom_key = undefined;
      d.rawKey = 'x';
      d.details = 'New body';
    });
    assert.equal(before.totalTrackedTime, 0);
    assert.equal(after.totalTrackedTime, 60);
    const text = await readFile(path.join(h.vault, 'TaskNotes/Tasks/Alpha.md'), 'utf8');
    assert.match(text, /rawKey: x/);
    assert.doesNotMatch(text, /custom_key/);
    assert.match(text, /\n---\n\nNew body\n$/);
    await h.service.edit('TaskNotes/Tasks/Alpha.md', (d) => void (d.priority = 'high'), { silent: true });
    assert.deepEqual(names(h), ['task.updated']);
    const noop = await h.service.edit('TaskNotes/Tasks/Alpha.md', () => {});
    assert.equal(noop.after, noop.before);
    assert.deepEqual(names(h), ['task.updated']);
  });

  it('delete moves the note to .trash and emits task.deleted', async () => {
    await h.service.delete('TaskNotes/Tasks/Beta.md');
    assert.equal(h.service.find('TaskNotes/Tasks/Beta.md'), undefined);
    assert.match(await readFile(path.join(h.vault, '.trash/Beta.md'), 'utf8'), /in-progress/);
    assert.deepEqual(names(h), ['task.deleted']);
    await assert.rejects(h.service.delete('TaskNotes/Tasks/Beta.md'), /Task not found/);
  });

  it('concurrent creates with one title get distinct files', async () => {
    const tasks = await Promise.all(Array.from({ length: 5 }, () => h.service.create({ title: 'Same' })));
    assert.deepEqual(tasks.map((t) => t.path).sort(), [
      'TaskNotes/Tasks/Same-2.md',
      'TaskNotes/Tasks/Same-3.md',
      'TaskNotes/Tasks/Same-4.md',
      'TaskNotes/Tasks/Same-5.md',
      'TaskNotes/Tasks/Same.md',
    ]);
    assert.equal(h.service.list().filter((t) => t.title === 'Same').length, 5);
  });

  it('takes a name in any letter case, so links by name stay unambiguous', async () => {
    const tasks = await Promise.all(['Case', 'CASE', 'case'].map((title) => h.service.create({ title })));
    assert.deepEqual(tasks.map((t) => t.path.toLowerCase()).sort(), [
      'tasknotes/tasks/case-2.md',
      'tasknotes/tasks/case-3.md',
      'tasknotes/tasks/case.md',
    ]);
    // A note may change the case of its own name.
    const mixed = await h.service.create({ title: 'Mixed Case' });
    const lower = await h.service.update(mixed.path, { title: 'mixed case' });
    assert.equal(lower.path, 'TaskNotes/Tasks/mixed case.md');
    const names = await readdir(path.join(h.vault, 'TaskNotes/Tasks'));
    assert.deepEqual(
      names.filter((name) => name.toLowerCase() === 'mixed case.md'),
      ['mixed case.md'],
    );
  });

  it('edit writes empty lists as given (only undefined or null removes a key)', async () => {
    await h.service.edit('TaskNotes/Tasks/Alpha.md', (d) => {
      d.skipped_instances = [];
      d.due = null;
    });
    const text = await readFile(path.join(h.vault, 'TaskNotes/Tasks/Alpha.md'), 'utf8');
    assert.match(text, /skipped_instances: \[\]/);
    assert.doesNotMatch(text, /due:/);
  });

  it('50 concurrent edits of one task lose no update', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.service.edit('TaskNotes/Tasks/Alpha.md', (d) => {
          d.contexts = [...(d.contexts as string[]), `@c${i}`];
        }),
      ),
    );
    const task = await h.service.get('TaskNotes/Tasks/Alpha.md');
    assert.equal(task.contexts.length, 50);
    assert.equal(task.details, 'Alpha body');
  });

  it('picks up external create, change, completion, rename and delete within a second', async () => {
    const dir = path.join(h.vault, 'TaskNotes/Tasks');
    await writeFile(path.join(dir, 'Ext.md'), '---\ntags: [task]\nstatus: open\n---\n');
    await waitFor(() => h.service.find('TaskNotes/Tasks/Ext.md') !== undefined);
    await writeFile(path.join(dir, 'Ext.md'), '---\ntags: [task]\nstatus: open\npriority: high\n---\n');
    await waitFor(() => h.service.find('TaskNotes/Tasks/Ext.md')?.priority === 'high');
    await writeFile(path.join(dir, 'Ext.md'), '---\ntags: [task]\nstatus: done\npriority: high\n---\n');
    await waitFor(() => names(h).includes('task.completed'));
    await rename(path.join(dir, 'Ext.md'), path.join(dir, 'Moved.md'));
    await waitFor(
      () =>
        h.service.find('TaskNotes/Tasks/Moved.md') !== undefined && !h.service.find('TaskNotes/Tasks/Ext.md'),
    );
    await rm(path.join(dir, 'Moved.md'));
    await waitFor(() => h.service.find('TaskNotes/Tasks/Moved.md') === undefined);
    await waitFor(() => names(h).filter((n) => n === 'task.deleted').length === 2);
    assert.deepEqual(names(h).slice(0, 3), ['task.created', 'task.updated', 'task.completed']);
    assert.deepEqual(names(h).slice(3).sort(), ['task.created', 'task.deleted', 'task.deleted']);
  });

  it('a burst of notes written and deleted by another program: one event per note, the same index as a fresh start', async () => {
    const folder = 'TaskNotes/Tasks/Burst';
    await mkdir(path.join(h.vault, folder));
    await sleep(100);
    // Dependencies on notes of the same burst (some written after their dependents), on an
    // existing task, and on a name two burst notes share (ambiguous: missing, so blocking).
    const notes = Array.from({ length: 120 }, (_, i) => {
      const deps = [
        `[[Note ${(i * 7) % 120}]]`,
        ...(i % 5 === 0 ? ['[[Beta]]'] : []),
        ...(i % 9 === 0 ? ['[[Twin]]'] : []),
      ];
      return {
        rel: i % 60 === 0 ? `${folder}/Sub ${i}/Twin.md` : `${folder}/Note ${i}.md`,
        text: `---\ntitle: Note ${i}\nstatus: ${i % 3 === 0 ? 'done' : 'open'}\nblockedBy:\n${deps.map((d) => `  - uid: "${d}"\n`).join('')}tags: [task]\n---\n`,
      };
    });
    await Promise.all(
      notes.map(async ({ rel, text }) => {
        await mkdir(path.dirname(path.join(h.vault, rel)), { recursive: true });
        await writeFile(path.join(h.vault, rel), text);
      }),
    );
    await waitFor(() => h.service.list().length === 2 + notes.length, 20_000);
    const created = h.events
      .filter((e) => e.name === 'task.created')
      .map((e) => (e.data as { task: { path: string } }).task.path);
    assert.deepEqual(created.sort(), notes.map((n) => n.rel).sort());

    const fresh = async (): Promise<unknown> => {
      const other = await TaskService.open({
        vault: h.vault,
        dataDir: path.join(h.vault, '.taskdown-fresh'),
        events: new EventBus(h.clock, { debug() {}, info() {}, warn() {}, error() {} }),
        clock: h.clock,
        log: { debug() {}, info() {}, warn() {}, error() {} },
      });
      const list = other.list();
      await other.stop();
      return JSON.parse(JSON.stringify(list));
    };
    assert.deepEqual(JSON.parse(JSON.stringify(h.service.list())), await fresh());

    h.events.length = 0;
    await rm(path.join(h.vault, folder), { recursive: true });
    await waitFor(() => h.service.list().length === 2, 20_000);
    await sleep(400);
    const deleted = h.events.map((e) => `${e.name} ${(e.data as { task: { path: string } }).task.path}`);
    assert.deepEqual(deleted.sort(), notes.map((n) => `task.deleted ${n.rel}`).sort());
    assert.deepEqual(JSON.parse(JSON.stringify(h.service.list())), await fresh());
  });

  it('does not report its own writes as external edits', async () => {
    await h.service.update('TaskNotes/Tasks/Alpha.md', { priority: 'high' });
    await h.service.create({ title: 'Own' });
    await h.service.delete('TaskNotes/Tasks/Beta.md');
    await sleep(400);
    assert.deepEqual(names(h), ['task.updated', 'task.created', 'task.deleted']);
  });

  it('an external edit not yet seen by the watcher is reconciled before a write', async () => {
    const file = path.join(h.vault, 'TaskNotes/Tasks/Beta.md');
    await writeFile(file, '---\nstatus: in-progress\npriority: high\ntags: [task]\n---\n');
    const after = await h.service.update('TaskNotes/Tasks/Beta.md', { status: 'open' });
    assert.equal(after.priority, 'high');
    await sleep(300);
    assert.deepEqual(names(h), ['task.updated', 'task.updated']);
  });

  it('reloads the plugin data.json when it changes', async () => {
    await mkdir(path.join(h.vault, '.obsidian/plugins/tasknotes'), { recursive: true });
    await writeFile(
      path.join(h.vault, '.obsidian/plugins/tasknotes/data.json'),
      JSON.stringify({ taskTag: 'todo', fieldMapping: { due: 'deadline' } }),
    );
    await waitFor(() => h.service.settings().taskTag === 'todo' && h.service.list().length === 0, 2000);
    assert.equal(h.service.settings().fieldMapping.due, 'deadline');
  });
});

describe('TaskService settings from data.json', () => {
  it('uses the plugin settings present at start (excluded folders, mapping, statuses)', async () => {
    const h2 = await open({
      '.obsidian/plugins/tasknotes/data.json': JSON.stringify({
        excludedFolders: 'Templates',
        fieldMapping: { due: 'deadline' },
        customStatuses: [{ value: 'todo' }, { value: 'closed', isCompleted: true }],
        defaultTaskStatus: 'todo',
      }),
      'Templates/t.md': '---\ntags: [task]\n---\n',
      'T.md': '---\ntags: [task]\ndeadline: 2025-05-05\n---\n',
    });
    try {
      const [task] = h2.service.list();
      assert.equal(h2.service.list().length, 1);
      assert.equal(task!.due, '2025-05-05');
      assert.equal(task!.status, 'todo');
      const toggled = await h2.service.toggleStatus('T.md');
      assert.equal(toggled.status, 'closed');
      assert.equal(h2.service.isCompletedStatus('closed'), true);
    } finally {
      await h2.cleanup();
    }
  });

  it('updates user fields through customProperties or top-level keys and adds DTSTART to a new rule', async () => {
    const h3 = await open({
      '.obsidian/plugins/tasknotes/data.json': JSON.stringify({
        userFields: [{ id: 'effort', displayName: 'Effort', key: 'effort', type: 'number' }],
      }),
      'U.md': '---\ntags: [task]\neffort: 1\nscheduled: 2026-02-03\n---\n',
    });
    try {
      const a = await h3.service.update('U.md', { customProperties: { effort: 2, other: 1 } });
      assert.deepEqual([effortOf(a), a.customProperties], [2, { effort: 2 }]);
      const b = await h3.service.update('U.md', { effort: 3, customProperties: { effort: 9 } });
      assert.equal(effortOf(b), 3);
      const c = await h3.service.update('U.md', { recurrence: 'FREQ=WEEKLY', effort: null });
      assert.equal(c.recurrence, 'DTSTART:20260203;FREQ=WEEKLY');
      assert.equal(effortOf(c), undefined);
      assert.doesNotMatch(await readFile(path.join(h3.vault, 'U.md'), 'utf8'), /other|effort/);
    } finally {
      await h3.cleanup();
    }
  });
});

describe('TaskService preconditions (If-Match)', () => {
  let h: Harness;
  const ALPHA = 'TaskNotes/Tasks/Alpha.md';
  const file = () => path.join(h.vault, ALPHA);
  /** The strong ETag of bytes: their SHA-1, base64, quoted. */
  const etagOfText = (text: string) => `"${createHash('sha1').update(text, 'utf8').digest('base64')}"`;
  const failed = (err: unknown): boolean => {
    assert.ok(isDomainError(err));
    assert.equal(err.code, 'PRECONDITION_FAILED');
    assert.equal(err.message, PRECONDITION_FAILED);
    return true;
  };

  beforeEach(async () => {
    h = await open({ [ALPHA]: A, 'TaskNotes/Tasks/Beta.md': BETA });
  });
  afterEach(() => h.cleanup());

  it('every task object carries the strong ETag of the note bytes it was read from or written as', async () => {
    const etag = etagOfText(A);
    assert.equal(h.service.etagOf(await h.service.get(ALPHA)), etag);
    assert.equal(h.service.etagOf(h.service.find(ALPHA)!), etag);
    const updated = await h.service.update(ALPHA, { priority: 'high', details: 'new' });
    assert.equal(h.service.etagOf(updated), etagOfText(await readFile(file(), 'utf8')));
    assert.notEqual(h.service.etagOf(updated), etag);
    assert.equal(h.service.etagOf({ ...updated }), undefined);
  });

  it('a matching precondition (or *) writes; a stale one throws with the current task and writes nothing', async () => {
    const etag = etagOfText(A);
    const done = await h.service.update(ALPHA, { priority: 'high' }, { precondition: ['"other"', etag] });
    assert.equal(done.priority, 'high');
    const written = await readFile(file(), 'utf8');
    h.events.length = 0;
    await assert.rejects(h.service.update(ALPHA, { priority: 'low' }, { precondition: [etag] }), (err) => {
      failed(err);
      const details = (err as { details: { task: Record<string, unknown>; etag: string } }).details;
      assert.equal(details.task.priority, 'high');
      assert.equal(details.task.details, 'Alpha body');
      assert.equal(details.etag, etagOfText(written));
      return true;
    });
    await assert.rejects(h.service.toggleStatus(ALPHA, { precondition: [etag] }), failed);
    await assert.rejects(h.service.toggleArchive(ALPHA, { precondition: [etag] }), failed);
    await assert.rejects(h.service.delete(ALPHA, { precondition: [etag] }), failed);
    // A weak tag never matches a write's precondition (strong comparison).
    await assert.rejects(
      h.service.update(ALPHA, { priority: 'low' }, { precondition: [`W/${etagOfText(written)}`] }),
      failed,
    );
    assert.equal(await readFile(file(), 'utf8'), written);
    assert.deepEqual(h.events, []);
    await h.service.toggleArchive(ALPHA, { precondition: ['*'] });
    assert.match(await readFile(file(), 'utf8'), /- archived/);
  });

  it('of concurrent writes with the same ETag exactly one wins', async () => {
    const etag = h.service.etagOf(await h.service.get(ALPHA))!;
    const results = await Promise.allSettled(
      ['low', 'normal', 'high', 'none'].map((priority) =>
        h.service.update(ALPHA, { priority }, { precondition: [etag] }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of results) if (r.status === 'rejected') failed(r.reason);
  });

  it('checks the bytes on disk, also before the watcher reported an external edit', async () => {
    const etag = h.service.etagOf(await h.service.get(ALPHA))!;
    const edited = A.replace('status: open', 'status: in-progress');
    await writeFile(file(), edited);
    await assert.rejects(h.service.update(ALPHA, { priority: 'high' }, { precondition: [etag] }), failed);
    assert.equal(await readFile(file(), 'utf8'), edited);
    const ok = await h.service.update(ALPHA, { priority: 'high' }, { precondition: [etagOfText(edited)] });
    assert.equal(ok.status, 'in-progress');
  });
});

describe('TaskService archive moves', () => {
  /** The note's bytes, or undefined when no file is there. */
  const bytesAt = (h: Harness, rel: string): Promise<string | undefined> =>
    readFile(path.join(h.vault, rel), 'utf8').catch(() => undefined);
  const refusal = (err: unknown): boolean => isDomainError(err) && /reserved folder/.test(err.message);

  it('never moves a note into .obsidian/ or the data dir, whatever the title or folder setting', async () => {
    // The archive folder holds the title, and titles are the client's: `..` in one climbs out of
    // the template's folder (the file name is cleaned, the folder is not).
    const h = await open({
      '.obsidian/plugins/tasknotes/data.json': JSON.stringify({
        moveArchivedTasks: true,
        archiveFolder: 'TaskNotes/Archive/{{title}}',
      }),
    });
    try {
      for (const title of ['../../../.obsidian/snippets', '../../../.taskdown']) {
        const task = await h.service.create({ title });
        const before = await bytesAt(h, task.path);
        await assert.rejects(h.service.toggleArchive(task.path), refusal);
        assert.equal(await bytesAt(h, task.path), before, 'the note is unchanged');
        assert.equal((await h.service.get(task.path)).archived, false);
      }
      assert.equal(h.events.filter((e) => e.name === 'task.archived').length, 0);
    } finally {
      await h.cleanup();
    }
  });

  it('changes nothing when the move is refused (a folder on the way is a link)', async () => {
    const outside = await tempDir('taskdown-outside-');
    const h = await open({
      '.obsidian/plugins/tasknotes/data.json': JSON.stringify({
        moveArchivedTasks: true,
        archiveFolder: 'Archive',
      }),
    });
    try {
      await symlink(outside.dir, path.join(h.vault, 'Archive'));
      const task = await h.service.create({ title: 'Pay rent' });
      const before = await bytesAt(h, task.path);
      await assert.rejects(h.service.toggleArchive(task.path), (err: unknown) => isDomainError(err));
      assert.equal(await bytesAt(h, task.path), before, 'no archived tag written');
      assert.deepEqual(await readdir(outside.dir), []);
      assert.equal(h.events.filter((e) => e.name === 'task.archived').length, 0);
    } finally {
      await h.cleanup();
      await outside.cleanup();
    }
  });
});
