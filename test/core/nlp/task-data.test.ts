/** Parser output → creation data (as in the TaskNotes plugin). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nlpSettingsFrom } from '../../../src/core/nlp/nlp-settings.js';
import { buildTaskData } from '../../../src/core/nlp/task-data.js';
import { mergeTaskNotesSettings } from '../../../src/core/tasks/tasknotes-settings.js';

describe('buildTaskData', () => {
  const settings = nlpSettingsFrom(
    mergeTaskNotesSettings({
      userFields: [
        { id: 'f1', key: 'assignee', displayName: 'Assignee', type: 'list' },
        { id: 'f2', key: 'billable', displayName: 'Billable', type: 'boolean' },
      ],
    }),
  );

  it('applies defaults, joins list user fields and normalises tags', () => {
    const data = buildTaskData(
      {
        title: '  Title  ',
        tags: ['#a b', ''],
        contexts: [],
        projects: ['p'],
        scheduledDate: '2026-01-02',
        scheduledTime: '09:30',
        estimate: 0,
        userFields: { f1: ['x', 'y'], f2: false, gone: 'z' },
      },
      settings,
      Date.UTC(2026, 0, 1),
    );
    const { dateCreated, dateModified, ...rest } = data;
    assert.equal(dateCreated, dateModified);
    assert.deepEqual(rest, {
      title: 'Title',
      status: 'open',
      priority: 'normal',
      scheduled: '2026-01-02T09:30',
      projects: ['p'],
      tags: ['a-b'],
      customFrontmatter: { assignee: 'x, y', billable: false },
    });
  });

  it('omits empty lists, zero estimates and unset dates', () => {
    const data = buildTaskData({ title: 'T', tags: [], contexts: [], projects: [] }, settings, 0);
    assert.deepEqual(Object.keys(data).sort(), [
      'dateCreated',
      'dateModified',
      'priority',
      'status',
      'title',
    ]);
  });
});
