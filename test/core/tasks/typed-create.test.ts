import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderPathPattern, pathPatternValues } from '../../../src/core/tasks/path-pattern.js';
import { defaultRoleMapping } from '../../../src/core/tasks/role-mapping.js';
import { applyTypeDefaults, createTypedTask, typedTaskPath } from '../../../src/core/tasks/typed-create.js';

const now = new Date(2026, 1, 20, 10, 20, 30);
const mapping = defaultRoleMapping();

test('path patterns expand title variants and dates, and name what is missing', () => {
  const values = pathPatternValues({ title: 'Publish API: Notes/v2', status: 'in-review' }, mapping, now);
  assert.equal(values.title, 'Publish API Notes-v2');
  assert.equal(values.titleKebab, 'publish-api-notes-v2');
  assert.equal(values.titlePascal, 'PublishApiNotesV2');
  assert.equal(values.statusShort, 'in-');
  assert.equal(values.week, '08');
  assert.deepEqual(renderPathPattern('tasks/{year}/{{monthNameShort}}/{titleKebab}', values), {
    path: 'tasks/2026/Feb/publish-api-notes-v2.md',
  });
  assert.deepEqual(renderPathPattern('tasks/{b}/{a}/{title}', values), { missing: ['a', 'b'] });
  assert.deepEqual(renderPathPattern('../{title}', values), { missing: [] });
});

test('type defaults fill gaps only and satisfy match conditions', () => {
  const type = {
    fields: { status: { default: 'open' }, dateCreated: {}, flag: { default: 'yes' } },
    match: { where: { kind: { eq: 'task' }, tags: { contains: 'task' }, owner: { exists: true } } },
  };
  const fm = applyTypeDefaults({ title: 'A', flag: 'no', tags: ['x'] }, type, mapping, now);
  assert.deepEqual(fm, {
    title: 'A',
    flag: 'no',
    tags: ['task', 'x'],
    status: 'open',
    dateCreated: now.toISOString(),
    kind: 'task',
    owner: true,
  });
});

test('creation writes through the collection and surfaces its refusal', async () => {
  const written: string[] = [];
  const ok = await createTypedTask(
    { create: async (note) => void written.push(note.path) },
    { type: { path_pattern: 'tasks/{title}' }, frontmatter: { title: 'Plan' } },
    mapping,
    now,
  );
  assert.equal(ok.path, 'tasks/Plan.md');
  assert.deepEqual(written, ['tasks/Plan.md']);
  await assert.rejects(
    createTypedTask(
      { create: async () => Promise.reject(new Error('already_exists')) },
      { type: { path_pattern: 'tasks/{title}' }, frontmatter: { title: 'Plan' } },
      mapping,
      now,
    ),
    /already_exists/,
  );
  assert.throws(
    () => typedTaskPath({ path_pattern: 'tasks/{dueDate}' }, {}, mapping, now),
    /path_required.*dueDate/,
  );
  assert.throws(() => typedTaskPath({}, {}, mapping, now), /path_required/);
});
