/**
 * The body template of new tasks (TaskNotes `taskCreationDefaults.useBodyTemplate`/`bodyTemplate`)
 * through the HTTP API: POST /api/tasks and NLP create apply it; a template that cannot be read
 * or parsed is skipped with a warning (the failure mode a TaskNotes vault has); template files are
 * read with the vault's path rules, so a link out of the vault is never read.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

const settings = (bodyTemplate: string) =>
  JSON.stringify({ taskCreationDefaults: { useBodyTemplate: true, bodyTemplate } });

const TEMPLATE = `---
type: "{{priority}}-task"
priority: low
reviewer: "{{nobody}}"
---
## {{title}}

Due {{dueDate}} · {{tags}} · {{hashtags}}
{{details}}
Created {{year}}-{{month}}-{{day}}
`;

const localDay = (): string => {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

describe('body template of new tasks', () => {
  let server: TestServer;
  const read = (id: string) => readFile(path.join(server.vault, id), 'utf8');
  before(async () => {
    server = await startTestServer({
      files: {
        '.obsidian/plugins/tasknotes/data.json': settings('Templates/Task'),
        'Templates/Task.md': TEMPLATE,
      },
    });
  });
  after(() => server.cleanup());

  it('POST /api/tasks applies it: variables expanded, the task’s own keys win, the body from the template', async () => {
    const res = await server.request('POST', '/api/tasks', {
      title: 'Plan launch',
      priority: 'high',
      due: '2026-03-01T10:00',
      tags: ['work'],
      details: 'Bring the numbers.',
    });
    assert.equal(res.status, 201, res.text);
    const text = await read(res.body.data.id);
    assert.match(text, /^priority: high$/m, 'the request wins over the template');
    assert.match(text, /^type: high-task$/m);
    assert.match(text, /^reviewer: "\{\{nobody\}\}"$/m, 'unknown variables are preserved');
    assert.ok(text.indexOf('type:') > text.indexOf('dateModified:'), 'template keys come after the task’s');
    assert.match(text, /^## Plan launch$/m);
    assert.match(text, /^Due 2026-03-01 · task, work · #task #work$/m);
    assert.match(text, /^Bring the numbers\.$/m);
    assert.match(text, new RegExp(`^Created ${localDay()}$`, 'm'));
    assert.equal(res.body.data.details.startsWith('## Plan launch'), true);
  });

  it('NLP create applies it too', async () => {
    const res = await server.request('POST', '/api/nlp/create', { text: 'Call the bank tomorrow' });
    assert.equal(res.status, 201, res.text);
    const text = await read(res.body.data.task.id);
    assert.match(text, /^## Call the bank$/m);
    assert.match(text, /^type: normal-task$/m);
  });
});

describe('body template that cannot be used', () => {
  let outside: string;
  before(async () => {
    outside = await mkdtemp(path.join(os.tmpdir(), 'taskdown-outside-'));
    await writeFile(path.join(outside, 'Secret.md'), '---\nleak: yes\n---\nSECRET BODY\n');
  });
  after(() => rm(outside, { recursive: true, force: true }));

  const cases: Array<[string, Record<string, string>, string]> = [
    ['missing', {}, 'template_missing'],
    [
      'with broken frontmatter',
      { 'Templates/Task.md': '---\ntype: [unclosed\n---\nbody\n' },
      'template_parse_failed',
    ],
  ];
  for (const [what, files, code] of cases) {
    it(`a template ${what} is skipped with a ${code} warning; the task is created without it`, async () => {
      const server = await startTestServer({
        files: { '.obsidian/plugins/tasknotes/data.json': settings('Templates/Task.md'), ...files },
      });
      try {
        const res = await server.request('POST', '/api/tasks', { title: 'Plain', details: 'Own body' });
        assert.equal(res.status, 201, res.text);
        const text = await readFile(path.join(server.vault, res.body.data.id), 'utf8');
        assert.match(text, /\n\nOwn body\n$/);
        assert.doesNotMatch(text, /type:/);
        assert.match(server.stderr(), new RegExp(code));
      } finally {
        await server.cleanup();
      }
    });
  }

  it('a template that is a link out of the vault is never read', async () => {
    const server = await startTestServer({
      files: { '.obsidian/plugins/tasknotes/data.json': settings('Templates/Task.md') },
    });
    try {
      await mkdir(path.join(server.vault, 'Templates'));
      await symlink(path.join(outside, 'Secret.md'), path.join(server.vault, 'Templates/Task.md'));
      const res = await server.request('POST', '/api/tasks', { title: 'Safe', details: 'Mine' });
      assert.equal(res.status, 201, res.text);
      const text = await readFile(path.join(server.vault, res.body.data.id), 'utf8');
      assert.doesNotMatch(text, /SECRET|leak/);
      assert.match(server.stderr(), /template_missing/);
    } finally {
      await server.cleanup();
    }
  });
});
