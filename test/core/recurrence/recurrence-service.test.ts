import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EventBus, type DomainEvent } from '../../../src/core/events/bus.js';
import { silentLogger } from '../../../src/core/logger.js';
import { createRecurrence, type RecurrenceModule } from '../../../src/core/recurrence/recurrence-module.js';
import { TaskService } from '../../../src/core/tasks/task-service.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const PARENT = 'TaskNotes/Tasks/Standup.md';
const note = (extra = ''): string =>
  [
    '---',
    'status: open',
    'priority: high',
    'scheduled: 2026-01-15',
    'due: 2026-01-16',
    'recurrence: DTSTART:20260115;FREQ=DAILY',
    'dateCreated: 2026-01-01T09:00:00.000+00:00',
    'contexts:',
    '  - "@office"',
    ...(extra ? [extra] : []),
    'tags:',
    '  - task',
    '---',
    '',
  ].join('\n');

describe('RecurrenceService', () => {
  let vault: string;
  let cleanups: Array<() => Promise<void>>;
  let tasks: TaskService;
  let recurrence: RecurrenceModule;
  let events: DomainEvent[];

  async function open(files: Record<string, string>): Promise<void> {
    await writeFiles(vault, files);
    const dataDir = await tempDir('taskdown-rec-data-');
    cleanups.push(dataDir.cleanup);
    const clock = new ManualClock(Date.parse('2026-01-15T09:00:00'));
    const bus = new EventBus(clock, silentLogger);
    tasks = await TaskService.open({
      vault,
      dataDir: dataDir.dir,
      events: bus,
      clock,
      log: silentLogger,
      stabilityMs: 20,
    });
    recurrence = createRecurrence({ tasks, events: bus, clock, log: silentLogger });
    bus.onAny((e) => events.push(e));
  }

  const names = (): string[] => events.map((e) => e.name);
  const svc = () => recurrence.service;

  beforeEach(async () => {
    const t = await tempDir('taskdown-rec-vault-');
    vault = t.dir;
    cleanups = [t.cleanup];
    events = [];
  });
  afterEach(async () => {
    await recurrence?.stop();
    await tasks?.stop();
    for (const c of cleanups) await c();
  });

  it('toggles a virtual instance: completion emits recurring.instance.completed, un-completion nothing', async () => {
    await open({ [PARENT]: note() });
    const after = await svc().completeInstance(PARENT);
    assert.deepEqual(after.complete_instances, ['2026-01-15']);
    assert.equal(after.scheduled, '2026-01-16');
    assert.equal(after.due, '2026-01-16', 'due is kept: offset maintenance is off and it is not behind');
    assert.equal(after.status, 'open');
    assert.deepEqual(names(), ['recurring.instance.completed']);
    const data = events[0]?.data as Record<string, any>;
    assert.equal(data.date, '2026-01-15');
    assert.equal(data.targetDate, '2026-01-15T00:00:00.000Z');
    assert.equal(data.task.path, PARENT);
    const text = await readFile(path.join(vault, PARENT), 'utf8');
    assert.match(text, /complete_instances:\n\s+- "?2026-01-15"?/);

    events = [];
    const undone = await svc().completeInstance(PARENT, '2026-01-15');
    assert.deepEqual(undone.complete_instances ?? [], []);
    assert.equal(undone.scheduled, '2026-01-15');
    assert.deepEqual(names(), []);
  });

  it('without a date and without a scheduled day, completes the due day (tasknotes-spec §5.2.1)', async () => {
    await open({
      [PARENT]: note().replace('scheduled: 2026-01-15\n', '').replace('due: 2026-01-16', 'due: 2026-01-17'),
    });
    await svc().completeInstance(PARENT);
    assert.equal((events[0]?.data as Record<string, any>).date, '2026-01-17');
  });

  it('maps a non-occurrence date to the instance it belongs to', async () => {
    await open({ [PARENT]: note().replace('FREQ=DAILY', 'FREQ=WEEKLY;BYDAY=TH') });
    const after = await svc().completeInstance(PARENT, '2026-01-17T10:00:00Z');
    assert.deepEqual(after.complete_instances, ['2026-01-15']);
    assert.equal(after.scheduled, '2026-01-22');
    assert.equal(after.due, '2026-01-23', 'a due left behind the new scheduled day moves with it');
    assert.equal((events[0]?.data as Record<string, any>).targetDate, '2026-01-17T10:00:00.000Z');
  });

  it('rejects bad input without writing', async () => {
    await open({ [PARENT]: note(), 'TaskNotes/Tasks/Plain.md': '---\nstatus: open\ntags:\n  - task\n---\n' });
    const before = await readFile(path.join(vault, PARENT), 'utf8');
    await assert.rejects(svc().completeInstance(PARENT, 'not-a-date'), {
      code: 'INVALID',
      message: 'Invalid date "not-a-date". Expected YYYY-MM-DD.',
    });
    await assert.rejects(svc().skipInstance(PARENT, undefined), {
      code: 'INVALID',
      message: 'Date is required',
    });
    await assert.rejects(svc().materializeOccurrence(PARENT, '2026-02-30'), { code: 'INVALID' });
    await assert.rejects(svc().completeInstance('TaskNotes/Tasks/Plain.md'), {
      code: 'INVALID',
      message: 'Task is not recurring',
    });
    await assert.rejects(svc().completeInstance('TaskNotes/Tasks/Missing.md'), {
      code: 'NOT_FOUND',
      message: 'Task not found',
    });
    assert.equal(await readFile(path.join(vault, PARENT), 'utf8'), before);
    assert.deepEqual(names(), []);
  });

  it('skips and unskips a virtual instance; only the skip emits, once', async () => {
    await open({ [PARENT]: note() });
    const skipped = await svc().skipInstance(PARENT, '2026-01-15');
    assert.deepEqual(skipped.skipped_instances, ['2026-01-15']);
    assert.equal(skipped.scheduled, '2026-01-16');
    assert.deepEqual(names(), ['recurring.instance.skipped']);
    assert.equal((events[0]?.data as Record<string, any>).date, '2026-01-15');

    // Skipping it again changes nothing: no write, no second event.
    const text = await readFile(path.join(vault, PARENT), 'utf8');
    const again = await svc().skipInstance(PARENT, '2026-01-15');
    assert.equal(again.scheduled, '2026-01-16');
    assert.equal(await readFile(path.join(vault, PARENT), 'utf8'), text);
    assert.deepEqual(names(), ['recurring.instance.skipped']);

    events = [];
    const unskipped = await svc().unskipInstance(PARENT, '2026-01-15');
    assert.deepEqual(unskipped.skipped_instances ?? [], []);
    assert.equal(unskipped.scheduled, '2026-01-15');
    assert.deepEqual(names(), []);

    // Undoing a skip that was never made changes nothing either (scheduled stays on the 15th).
    const unskippedText = await readFile(path.join(vault, PARENT), 'utf8');
    const never = await svc().unskipInstance(PARENT, '2026-02-14');
    assert.equal(never.scheduled, '2026-01-15');
    assert.equal(await readFile(path.join(vault, PARENT), 'utf8'), unskippedText);
  });

  it('reports days added to skipped_instances by a PUT', async () => {
    await open({ [PARENT]: note() });
    await tasks.update(PARENT, { skipped_instances: ['2026-01-20', '2026-01-21'] });
    assert.deepEqual(names(), ['task.updated', 'recurring.instance.skipped', 'recurring.instance.skipped']);
    assert.deepEqual(
      events.slice(1).map((e) => (e.data as Record<string, any>).date),
      ['2026-01-20', '2026-01-21'],
    );
    events = [];
    await tasks.update(PARENT, { skipped_instances: ['2026-01-20'] });
    assert.deepEqual(names(), ['task.updated'], 'removing a skip reports nothing');
  });

  it('materializes an occurrence idempotently', async () => {
    await open({ [PARENT]: note() });
    const first = await svc().materializeOccurrence(PARENT, '2026-01-20');
    assert.equal(first.created, true);
    assert.equal(first.task.path, 'TaskNotes/Tasks/Standup-2.md');
    assert.equal(first.task.title, 'Standup');
    assert.equal(first.task.recurrence_parent, '[[Standup]]');
    assert.equal(first.task.occurrence_date, '2026-01-20');
    assert.equal(first.task.scheduled, '2026-01-20');
    assert.equal(first.task.due, '2026-01-21');
    assert.equal(first.task.recurrence, undefined);
    assert.deepEqual(first.task.contexts, ['@office']);
    const again = await svc().materializeOccurrence(PARENT, '2026-01-20T08:00');
    assert.equal(again.created, false);
    assert.equal(again.task.path, first.task.path);
    assert.deepEqual(names(), ['task.created']);
  });

  it('names occurrences by the parent property template before the setting', async () => {
    await open({
      [PARENT]: note('occurrenceFilenameTemplate: "{{title}} {{occurrenceWeek}}"'),
      '.obsidian/plugins/tasknotes/data.json': JSON.stringify({
        occurrenceFilenameTemplate: '{{title}} {{occurrenceDate}}',
      }),
      'TaskNotes/Tasks/Other.md': note().replace('Standup', 'Other'),
    });
    const own = await svc().materializeOccurrence(PARENT, '2026-01-20');
    assert.equal(own.task.path, 'TaskNotes/Tasks/Standup 2026-W04.md');
    const fromSettings = await svc().materializeOccurrence('TaskNotes/Tasks/Other.md', '2026-01-20');
    assert.equal(fromSettings.task.path, 'TaskNotes/Tasks/Other 2026-01-20.md');
  });

  it('reconciles the parent when an occurrence note is completed and reopened', async () => {
    await open({ [PARENT]: note() });
    const { task: occurrence } = await svc().materializeOccurrence(PARENT, '2026-01-15');
    events = [];
    const done = await tasks.toggleStatus(occurrence.path);
    assert.equal(done.status, 'done');
    // The toggle hook makes toggle-status answer after the reconciliation.
    assert.deepEqual(names(), ['task.completed', 'recurring.instance.completed']);
    const data = events[1]?.data as Record<string, any>;
    assert.equal(data.date, '2026-01-15');
    assert.equal(data.occurrence.path, occurrence.path);
    assert.deepEqual(data.task.complete_instances, ['2026-01-15']);
    assert.equal(tasks.find(PARENT)?.scheduled, '2026-01-16');

    events = [];
    await tasks.toggleStatus(occurrence.path);
    assert.deepEqual(names(), ['task.updated']);
    assert.deepEqual(tasks.find(PARENT)?.complete_instances ?? [], []);
  });

  it('complete-instance toggles an existing occurrence note instead of the parent list', async () => {
    await open({ [PARENT]: note() });
    const { task: occurrence } = await svc().materializeOccurrence(PARENT, '2026-01-15');
    events = [];
    const result = await svc().completeInstance(PARENT, '2026-01-15');
    assert.equal(result.path, occurrence.path);
    assert.equal(result.status, 'done');
    assert.deepEqual(names(), ['task.completed', 'recurring.instance.completed']);
  });

  it('on_completion: completing an instance materializes it, completes it and creates the next', async () => {
    await open({ [PARENT]: note('occurrence_materialization: on_completion') });
    const result = await svc().completeInstance(PARENT);
    assert.equal(result.occurrence_date, '2026-01-15');
    assert.equal(result.status, 'done');
    assert.deepEqual(names(), [
      'task.created',
      'task.completed',
      'recurring.instance.completed',
      'task.created',
    ]);
    const next = events[3]?.data as Record<string, any>;
    assert.equal(next.task.occurrence_date, '2026-01-16');
    assert.deepEqual(tasks.find(PARENT)?.complete_instances, ['2026-01-15']);
  });

  it('an If-Match precondition is about the parent: stale, nothing is written on any path', async () => {
    await open({ [PARENT]: note() });
    const stale = [tasks.etagOf(tasks.find(PARENT)!)!];
    await tasks.update(PARENT, { priority: 'low' });
    const parentText = await readFile(path.join(vault, PARENT), 'utf8');
    const failed = { code: 'PRECONDITION_FAILED' };
    await assert.rejects(svc().completeInstance(PARENT, '2026-01-15', stale), failed);
    await assert.rejects(svc().skipInstance(PARENT, '2026-01-16', stale), failed);
    await assert.rejects(svc().unskipInstance(PARENT, '2026-01-16', stale), failed);
    const { task: occurrence } = await svc().materializeOccurrence(PARENT, '2026-01-15');
    const occurrenceText = await readFile(path.join(vault, occurrence.path), 'utf8');
    events = [];
    await assert.rejects(svc().completeInstance(PARENT, '2026-01-15', stale), failed);
    assert.equal(await readFile(path.join(vault, PARENT), 'utf8'), parentText);
    assert.equal(await readFile(path.join(vault, occurrence.path), 'utf8'), occurrenceText);
    assert.deepEqual(names(), []);

    const current = [tasks.etagOf(tasks.find(PARENT)!)!];
    const result = await svc().completeInstance(PARENT, '2026-01-15', current);
    assert.equal(result.status, 'done');
    assert.deepEqual(tasks.find(PARENT)?.complete_instances, ['2026-01-15']);
    const skipped = await svc().skipInstance(PARENT, '2026-01-17', [tasks.etagOf(tasks.find(PARENT)!)!]);
    assert.deepEqual(skipped.skipped_instances, ['2026-01-17']);
  });

  it('on_completion with a stale precondition materializes nothing', async () => {
    await open({ [PARENT]: note('occurrence_materialization: on_completion') });
    await assert.rejects(svc().completeInstance(PARENT, undefined, ['"stale"']), {
      code: 'PRECONDITION_FAILED',
    });
    assert.equal(tasks.list().length, 1);
    assert.deepEqual(names(), []);
  });

  it('skipping a materialized occurrence reconciles both notes without a skip event', async () => {
    await open({
      [PARENT]: note(),
      '.obsidian/plugins/tasknotes/data.json': JSON.stringify({
        customStatuses: [
          { id: 'open', value: 'open', label: 'Open', color: '#888', isCompleted: false, order: 1 },
          { id: 'done', value: 'done', label: 'Done', color: '#0a0', isCompleted: true, order: 2 },
          {
            id: 'skipped',
            value: 'skipped',
            label: 'Skipped',
            color: '#aaa',
            isCompleted: false,
            isSkipped: true,
            order: 3,
          },
        ],
      }),
    });
    const { task: occurrence } = await svc().materializeOccurrence(PARENT, '2026-01-15');
    events = [];
    const parent = await svc().skipInstance(PARENT, '2026-01-15');
    assert.deepEqual(parent.skipped_instances, ['2026-01-15']);
    assert.equal(tasks.find(occurrence.path)?.status, 'skipped');
    assert.equal(names().includes('recurring.instance.skipped'), false);

    await svc().unskipInstance(PARENT, '2026-01-15');
    assert.equal(tasks.find(occurrence.path)?.status, 'open');
    assert.deepEqual(tasks.find(PARENT)?.skipped_instances ?? [], []);
  });

  it('recomputes the schedule when PUT changes the rule, and rejects a bad rule', async () => {
    await open({ [PARENT]: note() });
    const after = await tasks.update(PARENT, { recurrence: 'FREQ=WEEKLY;BYDAY=MO' });
    assert.equal(after.scheduled, '2026-01-19');
    assert.match(after.recurrence ?? '', /^DTSTART:\d{8};FREQ=WEEKLY;BYDAY=MO$/);
    await assert.rejects(tasks.update(PARENT, { recurrence: 'FREQ=SOMETIMES' }), { code: 'INVALID' });
  });
});
