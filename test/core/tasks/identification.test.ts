/** Task identification by tag or property (as in the TaskNotes plugin). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isTaskFrontmatter,
  propertyIdentification,
  tagsWithIdentification,
} from '../../../src/core/tasks/identification.js';
import { mergeTaskNotesSettings } from '../../../src/core/tasks/tasknotes-settings.js';

const tagMode = mergeTaskNotesSettings({});
const propMode = mergeTaskNotesSettings({
  taskIdentificationMethod: 'property',
  taskPropertyName: 'isTask',
  taskPropertyValue: 'true',
});

describe('identification', () => {
  it('tag mode: the task tag, case-insensitive, hierarchical, list or scalar, never a substring', () => {
    assert.equal(isTaskFrontmatter({ tags: ['task'] }, tagMode), true);
    assert.equal(isTaskFrontmatter({ tags: '#Task' }, tagMode), true);
    assert.equal(isTaskFrontmatter({ tags: ['task/work'] }, tagMode), true);
    assert.equal(isTaskFrontmatter({ tags: ['pkm-task'] }, tagMode), false);
    assert.equal(isTaskFrontmatter({ status: 'open' }, tagMode), false);
  });

  it('property mode: exact value, list element or boolean; nothing when unconfigured', () => {
    assert.equal(isTaskFrontmatter({ isTask: true }, propMode), true);
    assert.equal(isTaskFrontmatter({ isTask: 'true' }, propMode), true);
    assert.equal(isTaskFrontmatter({ isTask: ['x', 'true'] }, propMode), true);
    assert.equal(isTaskFrontmatter({ isTask: false }, propMode), false);
    assert.equal(isTaskFrontmatter({ tags: ['task'] }, propMode), false);
    const unconfigured = mergeTaskNotesSettings({ taskIdentificationMethod: 'property' });
    assert.equal(isTaskFrontmatter({ '': '' }, unconfigured), false);
  });

  it('restores the task tag first and keeps an existing hierarchical one', () => {
    assert.deepEqual(tagsWithIdentification(['foo', '#bar'], tagMode), ['task', 'foo', 'bar']);
    assert.deepEqual(tagsWithIdentification(['task/work'], tagMode), ['task/work']);
    assert.deepEqual(tagsWithIdentification(['foo'], propMode), ['foo']);
  });

  it('writes the property identifier as a boolean and extends a different scalar to a list', () => {
    assert.equal(propertyIdentification(undefined, propMode), true);
    assert.equal(propertyIdentification(true, propMode), true);
    assert.deepEqual(propertyIdentification('x', propMode), ['x', true]);
  });
});
