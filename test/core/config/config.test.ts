import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { resolveCollectionPath } from '../../../src/core/config/collection-path.js';
import { mapPluginSettings } from '../../../src/core/config/plugin-settings.js';
import {
  assertConfigurationUsable,
  effectiveSpecVersion,
  mergeTopLevel,
} from '../../../src/core/config/providers.js';
import { validateConfigSection } from '../../../src/core/config/schema.js';
import { isTaskNote } from '../../../src/core/config/task-detection.js';

test('collection path: flag > env > persisted > cwd, blanks skipped, relative to cwd', () => {
  assert.equal(resolveCollectionPath({ flagPath: ' ', envPath: '/env', cwd: '/work' }), '/env');
  assert.equal(resolveCollectionPath({ persistedPath: 'rel/cfg', cwd: '/work' }), '/work/rel/cfg');
  assert.equal(resolveCollectionPath({ cwd: 'ws/c' }), path.resolve('ws/c'));
});

test('providers replace whole sections; versions; strict refuses incomplete config', () => {
  assert.deepEqual(mergeTopLevel([{ a: { x: 1, y: 2 }, b: 1 }, { a: { x: 3 } }]), { a: { x: 3 }, b: 1 });
  assert.deepEqual(effectiveSpecVersion(' ', '1.0.0'), { value: '1.0.0', synthesized: true });
  assert.throws(
    () => assertConfigurationUsable({ mode: 'strict', providersReadable: true, hasRequiredKeys: false }),
    /strict/,
  );
  assert.doesNotThrow(() =>
    assertConfigurationUsable({ mode: 'permissive', providersReadable: false, hasRequiredKeys: false }),
  );
  assert.throws(
    () => assertConfigurationUsable({ mode: 'lenient', providersReadable: true, hasRequiredKeys: true }),
    /unsupported/,
  );
});

test('plugin settings map to spec sections, only for keys present', () => {
  const mapped = mapPluginSettings({
    fieldMapping: { completeInstances: 'doneDates', title: '' },
    storeTitleInFilename: false,
    customStatuses: [{ value: 'todo' }, { value: 'done', isCompleted: true }],
    defaultTaskStatus: 'todo',
    taskIdentificationMethod: 'property',
    taskPropertyName: 'type',
    taskPropertyValue: 'task',
  });
  assert.deepEqual(mapped, {
    mapping: { complete_instances: 'doneDates' },
    title: { storage: 'frontmatter' },
    status: { values: ['todo', 'done'], default: 'todo', completed_values: ['done'] },
    defaults: { status: 'todo' },
    task_detection: { method: 'property', property_name: 'type', property_value: 'task' },
  });
  assert.deepEqual(mapPluginSettings(null), {});
});

test('task detection: tags in frontmatter or prose (not code), properties, exclusions, combine', () => {
  const note = (frontmatter: Record<string, unknown>, body = '', filePath = 'Tasks/a.md') => ({
    frontmatter,
    body,
    filePath,
  });
  assert.equal(isTaskNote(note({ tags: ['  #TASK  '] }), { method: 'tag', tag: '#task' }), true);
  assert.equal(isTaskNote(note({}, 'Plan #task today'), { method: 'tag', tag: 'task' }), true);
  assert.equal(isTaskNote(note({}, 'Plan #tasking'), { method: 'tag', tag: 'task' }), false);
  assert.equal(isTaskNote(note({}, '```\n#task\n```\n`#task`'), { method: 'tag', tag: 'task' }), false);
  assert.equal(
    isTaskNote(note({ type: 'x' }), { method: 'property', property_name: 'type', property_value: '' }),
    true,
  );
  assert.equal(
    isTaskNote(note({ tags: ['task'] }, '', 'Archive/a.md'), {
      tag: 'task',
      excluded_folders: 'Archive,Templates',
    }),
    false,
  );
  const both = { methods: ['tag', 'property'], tag: 'task', property_name: 'type', property_value: 'task' };
  assert.equal(isTaskNote(note({ type: 'task' }), { ...both, combine: 'and' }), false);
  assert.equal(isTaskNote(note({ type: 'task' }), { ...both, combine: 'or' }), true);
  assert.equal(isTaskNote(note({ tags: ['task'] }), {}), false);
});

test('section validation names the offending key', () => {
  assert.doesNotThrow(() =>
    validateConfigSection('status', {
      values: ['open', 'done'],
      default: 'open',
      completed_values: ['done'],
    }),
  );
  assert.throws(
    () => validateConfigSection('status', { values: ['open'], default: 'todo' }),
    /status\.default/,
  );
  assert.throws(
    () => validateConfigSection('status', { values: ['open'], completed_values: ['done'] }),
    /completed_values must be in/,
  );
  assert.throws(
    () => validateConfigSection('reminders', { date_only_anchor_time: '24:10' }),
    /reminders\.date_only_anchor_time invalid/,
  );
  assert.throws(
    () => validateConfigSection('title', { filename_format: 'custom' }),
    /title\.custom_filename_template missing/,
  );
  assert.throws(
    () => validateConfigSection('dependencies', { default_reltype: 'BLOCKS' }),
    /dependencies\.default_reltype/,
  );
  assert.throws(() => validateConfigSection('colour', {}), /unsupported/);
});
