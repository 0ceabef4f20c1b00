/** Planning a new note from a POST body (as in the TaskNotes plugin). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planCreate } from '../../../src/core/tasks/task-create.js';
import { mergeTaskNotesSettings } from '../../../src/core/tasks/tasknotes-settings.js';

const NOW = new Date(2026, 7, 8, 13, 4, 39, 123).getTime();
const defaults = mergeTaskNotesSettings({});

describe('planCreate', () => {
  it('applies defaults in the fixed key order and leaves the title to the filename', () => {
    const plan = planCreate({ title: ' Review  docs ', priority: 'high' }, defaults, NOW);
    assert.equal(plan.folder, 'TaskNotes/Tasks');
    assert.equal(plan.baseName, 'Review docs');
    const fm = plan.finalize('Review docs');
    assert.deepEqual(Object.keys(fm), [
      'status',
      'priority',
      'scheduled',
      'dateCreated',
      'dateModified',
      'tags',
    ]);
    assert.equal(fm.scheduled, '2026-08-08');
    assert.match(String(fm.dateCreated), /^2026-08-08T13:04:39\.123[+-]\d{2}:\d{2}$/);
    assert.deepEqual(fm.tags, ['task']);
    // A -2 suffix keeps the title in frontmatter, first.
    assert.equal(Object.keys(plan.finalize('Review docs-2'))[0], 'title');
  });

  it('null scheduled suppresses the default; empty lists and zero estimates are left out', () => {
    const fm = planCreate(
      { title: 'x', scheduled: null, contexts: [], timeEstimate: 0, tags: ['foo', 'archived'] },
      defaults,
      NOW,
    ).finalize('x');
    assert.equal(fm.scheduled, undefined);
    assert.equal(fm.contexts, undefined);
    assert.equal(fm.timeEstimate, undefined);
    assert.deepEqual(fm.tags, ['task', 'foo']);
  });

  it('sets completedDate for a completed status, adds DTSTART to a rule, serialises blockedBy', () => {
    const done = planCreate({ title: 'x', status: 'done' }, defaults, NOW).finalize('x');
    assert.equal(done.completedDate, '2026-08-08');
    const rec = planCreate(
      { title: 'x', recurrence: 'FREQ=DAILY', scheduled: '2026-08-10', blockedBy: [{ uid: 'A' }] },
      defaults,
      NOW,
    ).finalize('x');
    assert.equal(rec.recurrence, 'DTSTART:20260810;FREQ=DAILY');
    assert.deepEqual(rec.blockedBy, [{ uid: '[[A]]', reltype: 'FINISHTOSTART' }]);
  });

  it('client user-field values win over defaults; customFrontmatter merges last', () => {
    const settings = mergeTaskNotesSettings({
      userFields: [
        { id: 'e', displayName: 'Effort', key: 'effort', type: 'number', defaultValue: 1 },
        { id: 'f', displayName: 'Flag', key: 'flag', type: 'boolean' },
      ],
    });
    const fm = planCreate(
      { title: 'x', effort: 5, customFrontmatter: { extra: 'y', status: null } },
      settings,
      NOW,
    ).finalize('x');
    assert.equal(fm.effort, 5);
    assert.equal(fm.flag, false);
    assert.equal(fm.extra, 'y');
    assert.equal(fm.status, undefined);
  });

  it('property mode writes the identifier and no empty tags', () => {
    const settings = mergeTaskNotesSettings({
      taskIdentificationMethod: 'property',
      taskPropertyName: 'isTask',
      taskPropertyValue: 'true',
    });
    const fm = planCreate({ title: 'x' }, settings, NOW).finalize('x');
    assert.equal(fm.isTask, true);
    assert.equal(fm.tags, undefined);
  });
});
