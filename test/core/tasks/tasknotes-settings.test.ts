/** TaskNotes plugin settings: defaults and data.json merging. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultTaskNotesSettings,
  firstCompletedStatus,
  isExcludedPath,
  mergeTaskNotesSettings,
} from '../../../src/core/tasks/tasknotes-settings.js';

describe('TaskNotes settings', () => {
  it('has the plugin defaults', () => {
    const s = defaultTaskNotesSettings();
    assert.equal(s.tasksFolder, 'TaskNotes/Tasks');
    assert.equal(s.storeTitleInFilename, true);
    assert.deepEqual(
      s.customStatuses.map((x) => [x.value, x.isCompleted]),
      [
        ['none', false],
        ['open', false],
        ['in-progress', false],
        ['done', true],
      ],
    );
    assert.deepEqual(
      s.customPriorities.map((p) => p.weight),
      [0, 1, 2, 3],
    );
    assert.equal(firstCompletedStatus(s), 'done');
  });

  it('merges a data.json field by field, ignoring values of the wrong type', () => {
    const s = mergeTaskNotesSettings({
      tasksFolder: 'Inbox',
      storeTitleInFilename: 'yes',
      excludedFolders: 'Archive, Templates/',
      fieldMapping: { due: 'deadline' },
      customStatuses: [{ value: 'todo' }, { value: 'closed', isCompleted: true }, { label: 'no value' }],
      taskCreationDefaults: { defaultScheduledDate: 'none' },
    });
    assert.equal(s.tasksFolder, 'Inbox');
    assert.equal(s.storeTitleInFilename, true);
    assert.equal(s.fieldMapping.due, 'deadline');
    assert.deepEqual(
      s.customStatuses.map((x) => x.value),
      ['todo', 'closed'],
    );
    assert.equal(firstCompletedStatus(s), 'closed');
    assert.equal(s.taskCreationDefaults.defaultScheduledDate, 'none');
    assert.equal(s.taskCreationDefaults.defaultDueDate, 'none');
    assert.equal(isExcludedPath(s, 'Templates/x.md'), true);
    assert.equal(isExcludedPath(s, 'Archived/x.md'), false);
    assert.equal(isExcludedPath(s, 'Archive'), true);
  });

  it('falls back to defaults for garbage', () => {
    assert.deepEqual(mergeTaskNotesSettings('nope'), defaultTaskNotesSettings());
    assert.deepEqual(mergeTaskNotesSettings(null), defaultTaskNotesSettings());
  });
});
