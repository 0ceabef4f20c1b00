/** TaskNotes plugin settings: defaults and data.json merging. */
import assert from 'node:assert/strict';
import { detectionOf, taskDetector } from '../../../src/core/config/task-detection.js';
import { describe, it } from 'node:test';
import { DEFAULT_NLP_TRIGGERS as CORE_TRIGGERS } from 'tasknotes-nlp-core';
import {
  DEFAULT_NLP_TRIGGERS,
  defaultTaskNotesSettings,
  firstCompletedStatus,
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
    const detector = taskDetector(detectionOf(s));
    assert.equal(detector.excludes('Templates/x.md'), true);
    assert.equal(detector.excludes('Archived/x.md'), false);
    assert.equal(detector.excludes('Archive'), true);
  });

  it('carries the parser, pomodoro and .base settings, defaults where malformed', () => {
    const s = mergeTaskNotesSettings({
      nlpLanguage: '',
      nlpTriggers: {
        triggers: [
          { propertyId: 'tags', trigger: '%' },
          { propertyId: 'x', trigger: '' },
        ],
      },
      nlpDefaultToScheduled: 'no',
      calendarViewSettings: { locale: 'de-DE', firstDay: 0 },
      commandFileMapping: { 'open-tasks-view': 'Views/tasks.base', broken: 3 },
      defaultVisibleProperties: ['due', 7, 'status'],
      pomodoroWorkDuration: 50,
      pomodoroLongBreakInterval: '2',
      pomodoroAutoStartWork: true,
    });
    assert.equal(s.nlpLanguage, 'en');
    assert.deepEqual(s.nlpTriggers, { triggers: [{ propertyId: 'tags', trigger: '%', enabled: true }] });
    assert.equal(s.nlpDefaultToScheduled, true);
    assert.deepEqual(s.calendarViewSettings, { locale: 'de-DE' });
    assert.equal(s.commandFileMapping['open-tasks-view'], 'Views/tasks.base');
    assert.equal(s.commandFileMapping['open-kanban-view'], 'TaskNotes/Views/kanban-default.base');
    assert.equal(s.commandFileMapping.broken, undefined);
    assert.deepEqual(s.defaultVisibleProperties, ['due', 'status']);
    assert.equal(s.pomodoroWorkDuration, 50);
    assert.equal(s.pomodoroShortBreakDuration, 5);
    assert.equal(s.pomodoroLongBreakInterval, 4);
    assert.equal(s.pomodoroAutoStartWork, true);
    assert.equal(s.pomodoroAutoStartBreaks, true);
  });

  it('falls back to defaults for garbage', () => {
    assert.deepEqual(mergeTaskNotesSettings('nope'), defaultTaskNotesSettings());
    assert.deepEqual(mergeTaskNotesSettings(null), defaultTaskNotesSettings());
  });
});

describe('default NLP triggers', () => {
  it('equal the ones tasknotes-nlp-core ships (written out so startup need not load the parser)', () => {
    assert.deepEqual(DEFAULT_NLP_TRIGGERS, CORE_TRIGGERS);
    assert.deepEqual(defaultTaskNotesSettings().nlpTriggers, CORE_TRIGGERS);
  });
});
