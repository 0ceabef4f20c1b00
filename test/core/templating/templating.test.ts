import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  composeFromTemplate,
  mergeTemplateFrontmatter,
  onTemplateFailure,
} from '../../../src/core/templating/compose.js';
import { splitTemplate } from '../../../src/core/templating/sections.js';
import {
  expandTemplate,
  taskTemplateVariables,
  templateTokens,
} from '../../../src/core/templating/variables.js';

test('a template splits into raw frontmatter and body', () => {
  assert.deepEqual(splitTemplate('---\ntitle: {{title}}\n---\nBody'), {
    frontmatterRaw: 'title: {{title}}',
    body: 'Body',
  });
  assert.deepEqual(splitTemplate('Just body'), { frontmatterRaw: '', body: 'Just body' });
});

test('variables come from the task and the creation time; unknown ones follow the policy', () => {
  const vars = taskTemplateVariables(
    { title: 'Pay', tags: ['task', 'bills'], contexts: 'home, work' },
    new Date(2026, 1, 20, 9, 5),
  );
  assert.equal(
    expandTemplate('{{title}} {{hashtags}} {{contexts}} {{date}} {{time}}', vars),
    'Pay #task #bills home, work 2026-02-20 09:05',
  );
  assert.equal(expandTemplate('{{title}} {{nope}}', vars), 'Pay {{nope}}');
  assert.equal(expandTemplate('{{title}} {{nope}}', vars, 'empty'), 'Pay ');
  assert.throws(() => expandTemplate('{{nope}}', vars, 'error'), /template_unknown_variable/);
  assert.deepEqual(templateTokens('a {{ title }} b {{x}}'), ['title', 'x']);
});

test('the caller wins over the template; failures abort or fall back', () => {
  assert.deepEqual(
    mergeTemplateFrontmatter({ title: 'A', tags: ['one'] }, { title: 'B', tags: ['two'], extra: true }),
    {
      title: 'A',
      tags: ['one'],
      extra: true,
    },
  );
  assert.equal(
    composeFromTemplate({ baseFrontmatter: {}, templateFrontmatter: {}, callerBody: 'c', templateBody: '  ' })
      .body,
    'c',
  );
  assert.deepEqual(onTemplateFailure('warning_fallback', 'template_missing'), { mode: 'fallback' });
  assert.throws(() => onTemplateFailure('error', 'template_missing'), /template_missing/);
  assert.throws(() => onTemplateFailure('sometimes', 'x'), /failure_mode invalid/);
});
