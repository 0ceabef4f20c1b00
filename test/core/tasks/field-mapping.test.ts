/** Field mapping: frontmatter ↔ TaskInfo normalisation (as in the TaskNotes plugin). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildFieldMapping,
  DEFAULT_FIELD_MAPPING,
  denormalizeField,
  isEmptyValue,
  isCompletedStatus,
  lookupConfigValue,
  normalizeFrontmatter,
  normalizeTags,
  type NormalizeOptions,
} from '../../../src/core/tasks/field-mapping.js';
import { linkTarget } from '../../../src/core/links/parse.js';
import { defaultTaskNotesSettings } from '../../../src/core/tasks/tasknotes-settings.js';

const settings = defaultTaskNotesSettings();
const opts = (over: Partial<NormalizeOptions> = {}): NormalizeOptions => ({
  mapping: settings.fieldMapping,
  statuses: settings.customStatuses,
  priorities: settings.customPriorities,
  userFields: [],
  defaultStatus: 'open',
  path: 'TaskNotes/Tasks/My task.md',
  ...over,
});

describe('field mapping', () => {
  it('merges a partial mapping over the defaults and ignores junk', () => {
    const m = buildFieldMapping({ due: 'deadline', status: 42, nope: 'x', title: '  ' });
    assert.equal(m.due, 'deadline');
    assert.equal(m.status, 'status');
    assert.equal(m.title, 'title');
    assert.equal(DEFAULT_FIELD_MAPPING.sortOrder, 'tasknotes_manual_order');
    assert.equal(DEFAULT_FIELD_MAPPING.recurrenceAnchor, 'recurrence_anchor');
  });

  it('falls back to the basename title and applies status/priority defaults', () => {
    const t = normalizeFrontmatter({ tags: ['task'], title: '  ' }, opts());
    assert.equal(t.title, 'My task');
    assert.equal(t.status, 'open');
    assert.equal(t.priority, 'normal');
    assert.deepEqual(t.contexts, []);
    assert.deepEqual(t.projects, []);
    assert.equal(t.archived, false);
  });

  it('normalises values as the reference does', () => {
    const t = normalizeFrontmatter(
      {
        title: ['a', 'b'],
        status: 'Done',
        priority: 'HIGH',
        due: ['2025-01-15'],
        contexts: '@home',
        projects: null,
        timeEstimate: '30',
        recurrence_anchor: 'weird',
        complete_instances: ['2025-01-01T10:00', 'bad', '2025-01-01', '2025-02-30'],
        blockedBy: [
          '[[Dep|alias]]',
          { uid: '[x](Folder/Other%20task.md)', reltype: 'startToStart', gap: 'P1D' },
        ],
        tags: ['#task', 'Archived', 'archived', 'two words'],
        reminders: [null],
        attachments: [' a ', 3, ''],
        tasknotes_manual_order: 'a0',
      },
      opts(),
    );
    assert.equal(t.title, 'a, b');
    assert.equal(t.status, 'done');
    assert.equal(t.priority, 'high');
    assert.equal(t.due, '2025-01-15');
    assert.deepEqual(t.contexts, ['@home']);
    assert.deepEqual(t.projects, [], 'an empty key holds no item (the reference read "null")');
    assert.deepEqual(
      normalizeFrontmatter({ contexts: ['@home', null], tags: ['task'] }, opts()).contexts,
      ['@home'],
      'nor is an empty item a value',
    );
    assert.equal(t.timeEstimate, 30);
    assert.equal(t.recurrence_anchor, 'scheduled');
    assert.deepEqual(t.complete_instances, ['2025-01-01']);
    assert.deepEqual(t.blockedBy, [
      { uid: 'Dep', reltype: 'FINISHTOSTART' },
      { uid: 'Folder/Other task.md', reltype: 'STARTTOSTART', gap: 'P1D' },
    ]);
    assert.deepEqual(t.tags, ['task', 'Archived', 'archived', 'two-words']);
    assert.equal(t.archived, true);
    assert.equal(t.reminders, undefined);
    assert.deepEqual(t.attachments, ['a']);
    assert.equal(t.sortOrder, 'a0');
    // Ten years of a daily habit, each day listed twice: each day once, in order.
    const days = Array.from({ length: 3_650 }, (_, i) => new Date(Date.UTC(2020, 0, 1 + i)).toISOString());
    const habit = normalizeFrontmatter({ title: 'Walk', complete_instances: [...days, ...days] }, opts());
    assert.deepEqual(
      habit.complete_instances,
      days.map((d) => d.slice(0, 10)),
    );
  });

  it('reads through a remapped key and copies user fields twice', () => {
    const mapping = buildFieldMapping({ due: 'deadline' });
    const t = normalizeFrontmatter(
      { deadline: '2025-03-01', due: 'ignored', effort: 3 },
      opts({ mapping, userFields: [{ key: 'effort' }, { key: 'absent' }] }),
    );
    assert.equal(t.due, '2025-03-01');
    assert.equal(t.effort, 3);
    assert.deepEqual(t.customProperties, { effort: 3 });
  });

  it('looks up status values by value, label, then case-insensitively', () => {
    assert.equal(lookupConfigValue('In progress', settings.customStatuses), 'in-progress');
    assert.equal(lookupConfigValue(' OPEN ', settings.customStatuses), 'open');
    assert.equal(lookupConfigValue('waiting', settings.customStatuses), 'waiting');
    assert.equal(isCompletedStatus('done', settings.customStatuses), true);
    assert.equal(isCompletedStatus('open', settings.customStatuses), false);
  });

  it('denormalises: null deletes, booleans for true/false status, [[ ]] uids, no duration', () => {
    assert.equal(denormalizeField('due', null), undefined);
    assert.equal(denormalizeField('due', undefined), undefined);
    assert.deepEqual(denormalizeField('complete_instances', []), []);
    assert.equal(isEmptyValue([]), true);
    assert.equal(isEmptyValue(' '), true);
    assert.equal(isEmptyValue(0), false);
    assert.equal(denormalizeField('status', 'true'), true);
    assert.deepEqual(denormalizeField('blockedBy', [{ uid: 'A', reltype: 'finishtofinish' }, 'B']), [
      { uid: '[[A]]', reltype: 'FINISHTOFINISH' },
      { uid: '[[B]]', reltype: 'FINISHTOSTART' },
    ]);
    assert.deepEqual(denormalizeField('timeEntries', [{ startTime: 's', duration: 5 }]), [
      { startTime: 's' },
    ]);
  });

  it('normalises tags and link syntax', () => {
    assert.deepEqual(normalizeTags('#task'), ['task']);
    assert.deepEqual(normalizeTags(null), []);
    assert.deepEqual(normalizeTags(['b', '#a', 'a', 'b', ' c d ']), ['b', 'a', 'c-d']);
    // Long lists: the first of each, in order.
    const many = Array.from({ length: 50_000 }, (_, i) => `t${i % 20_000}`);
    assert.deepEqual(normalizeTags(many), many.slice(0, 20_000));
    assert.deepEqual(normalizeTags([...many.slice(0, 20), '#t3', 't21']), many.slice(0, 20).concat('t21'));
    assert.equal(linkTarget('[[A/B#h|x]]'), 'A/B');
    assert.equal(linkTarget('[x](My%20Task.md)'), 'My Task.md');
    assert.equal(linkTarget('plain'), 'plain');
  });
});
