import { wikilinkTarget } from '../../../src/core/links/canonical.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isoWeek, renderOccurrenceName } from '../../../src/core/recurrence/occurrence-filename.js';
import {
  isOccurrenceNote,
  linkKey,
  linksTo,
  planOccurrence,
} from '../../../src/core/recurrence/occurrence-note.js';
import type { TaskInfo } from '../../../src/core/tasks/task-info.js';

const parent: TaskInfo = {
  id: 'TaskNotes/Tasks/Daily standup.md',
  path: 'TaskNotes/Tasks/Daily standup.md',
  title: 'Daily standup',
  status: 'open',
  priority: 'high',
  archived: true,
  tags: ['task', 'archived', 'work'],
  contexts: ['@office'],
  projects: ['[[Q1]]'],
  totalTrackedTime: 0,
  isBlocked: false,
  isBlocking: false,
  scheduled: '2026-01-05T09:00',
  due: '2026-01-07',
  recurrence: 'DTSTART:20260105;FREQ=DAILY',
  complete_instances: ['2026-01-05'],
  timeEstimate: 15,
  blockedBy: [{ uid: 'Draft docs', reltype: 'FINISHTOSTART' }],
};

describe('occurrence filenames', () => {
  it('computes ISO weeks across year boundaries', () => {
    assert.equal(isoWeek('2026-08-01'), '2026-W31');
    assert.equal(isoWeek('2026-01-01'), '2026-W01');
    assert.equal(isoWeek('2027-01-01'), '2026-W53');
    assert.equal(isoWeek('2024-12-30'), '2025-W01');
  });

  it('renders occurrence and title variables; unknown ones vanish', () => {
    const ctx = { title: 'Pay rent', priority: 'normal' };
    assert.equal(
      renderOccurrenceName('{{title}} — {{occurrenceDate}}', ctx, '2026-08-01'),
      'Pay rent — 2026-08-01',
    );
    assert.equal(
      renderOccurrenceName('{{titleKebab}}-{{occurrenceMonth}}', ctx, '2026-08-01'),
      'pay-rent-2026-08',
    );
    assert.equal(
      renderOccurrenceName('{occurrenceMonthName} {{occurrenceYear}}{{nope}}', ctx, '2026-08-01'),
      'August 2026',
    );
  });
});

describe('occurrence notes', () => {
  it('plans the inherited fields, the moved dates and the parent link', () => {
    const plan = planOccurrence(parent, '2026-01-10', { defaultStatus: 'open', parentLink: 'Daily standup' });
    assert.deepEqual(plan, {
      title: 'Daily standup',
      status: 'open',
      priority: 'high',
      scheduled: '2026-01-10T09:00',
      due: '2026-01-12',
      tags: ['task', 'work'],
      contexts: ['@office'],
      projects: ['[[Q1]]'],
      timeEstimate: 15,
      blockedBy: [{ uid: '[[Draft docs]]', reltype: 'FINISHTOSTART' }],
      recurrence_parent: '[[Daily standup]]',
      occurrence_date: '2026-01-10',
    });
  });

  it('moves due relative to itself when the parent has no scheduled date', () => {
    const plan = planOccurrence({ ...parent, scheduled: undefined }, '2026-01-10', {
      defaultStatus: 'open',
      parentLink: 'x',
    });
    assert.equal(plan.scheduled, '2026-01-10');
    assert.equal(plan.due, '2026-01-10');
  });

  it('recognises links to the parent in their usual forms', () => {
    assert.equal(linkKey('[[Folder/Daily standup.md|Standup]]'), 'folder/daily standup');
    assert.equal(linkKey('[x](Folder/Daily%20standup.md)'), 'folder/daily standup');
    assert.equal(linksTo('[[Daily standup]]', parent.path), true);
    assert.equal(linksTo('[[TaskNotes/Tasks/Daily standup]]', parent.path), true);
    assert.equal(linksTo('[[Weekly standup]]', parent.path), false);
    assert.equal(
      isOccurrenceNote({ ...parent, recurrence_parent: '[[x]]', occurrence_date: '2026-01-10' }),
      true,
    );
    assert.equal(isOccurrenceNote({ ...parent, recurrence_parent: '[[x]]' }), false);
  });

  it('links by basename unless another note shares it', () => {
    assert.equal(wikilinkTarget('A/Daily.md', ['A/Daily.md', 'A/Other.md']), 'Daily');
    assert.equal(wikilinkTarget('A/Daily.md', ['A/Daily.md', 'B/daily.md']), 'A/Daily');
  });
});
