/** Task identification by tag or property (as in the TaskNotes plugin). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectionOf, taskDetector } from '../../../src/core/config/task-detection.js';
import { withIdentification } from '../../../src/core/tasks/identification.js';
import type { TaskNotesSettings } from '../../../src/core/tasks/tasknotes-settings.js';
import { mergeTaskNotesSettings } from '../../../src/core/tasks/tasknotes-settings.js';

const tagMode = mergeTaskNotesSettings({});
const propMode = mergeTaskNotesSettings({
  taskIdentificationMethod: 'property',
  taskPropertyName: 'isTask',
  taskPropertyValue: 'true',
});

const isTaskFrontmatter = (frontmatter: Record<string, unknown>, settings: TaskNotesSettings): boolean =>
  taskDetector(detectionOf(settings)).isTask({ filePath: 'T.md', frontmatter, body: '' });

describe('identification', () => {
  it('tag mode: the task tag, case-insensitive, hierarchical, list or scalar, never a substring', () => {
    assert.equal(isTaskFrontmatter({ tags: ['task'] }, tagMode), true);
    assert.equal(isTaskFrontmatter({ tags: '#Task' }, tagMode), true);
    assert.equal(isTaskFrontmatter({ tags: ['task/work'] }, tagMode), true);
    assert.equal(isTaskFrontmatter({ tags: ['pkm-task'] }, tagMode), false);
    assert.equal(isTaskFrontmatter({ status: 'open' }, tagMode), false);
  });

  it('tag mode reads frontmatter only: a #task in the body does not make a note a task', () => {
    const detector = taskDetector(detectionOf(tagMode));
    assert.equal(detector.isTask({ filePath: 'N.md', frontmatter: {}, body: 'Buy milk #task' }), false);
  });

  it('excluded folders: their notes are never tasks', () => {
    const detector = taskDetector(
      detectionOf(mergeTaskNotesSettings({ excludedFolders: 'Templates, /Old/' })),
    );
    assert.equal(detector.excludes('Templates/x.md'), true);
    assert.equal(detector.excludes('Old/x.md'), true);
    assert.equal(detector.excludes('Older/x.md'), false);
    assert.equal(
      detector.isTask({ filePath: 'Templates/x.md', frontmatter: { tags: ['task'] }, body: '' }),
      false,
    );
  });

  it('property mode: exact value, list element or boolean; nothing when unconfigured', () => {
    assert.equal(isTaskFrontmatter({ isTask: true }, propMode), true);
    assert.equal(isTaskFrontmatter({ isTask: 'true' }, propMode), true);
    assert.equal(isTaskFrontmatter({ isTask: ['x', 'true'] }, propMode), true);
    assert.equal(isTaskFrontmatter({ isTask: false }, propMode), false);
    assert.equal(isTaskFrontmatter({ tags: ['task'] }, propMode), false);
    const unconfigured = mergeTaskNotesSettings({ taskIdentificationMethod: 'property' });
    assert.equal(isTaskFrontmatter({ '': '' }, unconfigured), false);
    // A property without a value to match: its presence is enough (tasknotes-spec §9.7.2).
    const presence = mergeTaskNotesSettings({
      taskIdentificationMethod: 'property',
      taskPropertyName: 'isTask',
    });
    assert.equal(isTaskFrontmatter({ isTask: 'anything' }, presence), true);
    assert.equal(isTaskFrontmatter({ other: true }, presence), false);
  });

  it('restores the task tag first and keeps an existing hierarchical one', () => {
    assert.deepEqual(withIdentification({ tags: ['foo', 'bar'] }, tagMode).tags, ['task', 'foo', 'bar']);
    assert.deepEqual(withIdentification({ tags: ['task/work'] }, tagMode).tags, ['task/work']);
    assert.deepEqual(withIdentification({}, tagMode), { tags: ['task'] });
    assert.deepEqual(withIdentification({ tags: ['foo'] }, propMode), { tags: ['foo'], isTask: true });
  });

  it('writes the property identifier as a boolean, or requires only its presence without a value', () => {
    assert.deepEqual(withIdentification({}, propMode), { isTask: true });
    assert.deepEqual(withIdentification({ isTask: 'kept' }, propMode), { isTask: 'kept' });
    const presence = mergeTaskNotesSettings({
      taskIdentificationMethod: 'property',
      taskPropertyName: 'kind',
    });
    assert.deepEqual(withIdentification({}, presence), { kind: true });
  });
});
