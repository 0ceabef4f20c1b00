import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applyTransform, interpolate, resolve } from '../../../src/core/webhooks/transformer.js';
import { createVaultFileReader, type VaultFileReader } from '../../../src/core/webhooks/vault-reader.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const payload = {
  event: 'task.created',
  timestamp: '2026-01-15T09:00:00.000Z',
  vault: { name: 'Notes', path: '/home/me/Notes' },
  data: {
    task: {
      title: 'Buy milk',
      due: null,
      timeEstimate: 30,
      archived: false,
      projects: ['[[Groceries]]', '[[House]]'],
      tags: ['task'],
    },
  },
};

const memoryReader = (files: Record<string, string>): VaultFileReader => ({
  async readText(rel) {
    const text = files[rel];
    if (text === undefined)
      throw Object.assign(new Error(`ENOENT: no such file '${rel}'`), { code: 'ENOENT' });
    return text;
  },
});

describe('transform interpolation', () => {
  it('resolves dotted paths, with numeric parts indexing arrays', () => {
    assert.equal(resolve(payload, 'data.task.projects.1'), '[[House]]');
    assert.equal(resolve(payload, 'vault.name'), 'Notes');
    assert.equal(resolve(payload, 'data.task.projects.x'), undefined);
    assert.equal(resolve(payload, 'data.task.title.length'), undefined);
    assert.equal(resolve(payload, 'data.constructor'), undefined);
  });

  it('inserts strings as is, numbers and booleans as text, objects as compact JSON', () => {
    const out = interpolate(
      {
        text: '${data.task.title} (${data.task.timeEstimate} min, archived ${data.task.archived})',
        first: '${data.task.projects.0}',
        list: '${data.task.projects}',
        obj: '${vault}',
        nested: ['${event}', { deep: '${timestamp}' }],
        keep: 42,
        nil: null,
      },
      payload,
    );
    assert.deepEqual(out, {
      text: 'Buy milk (30 min, archived false)',
      first: '[[Groceries]]',
      list: '["[[Groceries]]","[[House]]"]',
      obj: '{"name":"Notes","path":"/home/me/Notes"}',
      nested: ['task.created', { deep: '2026-01-15T09:00:00.000Z' }],
      keep: 42,
      nil: null,
    });
  });

  it('leaves undefined and null variables as literal text', () => {
    assert.equal(
      interpolate('due ${data.task.due} / ${data.nope.x} / ${ event }', payload),
      'due ${data.task.due} / ${data.nope.x} / ${ event }',
    );
  });

  it('does not interpolate keys, and a "__proto__" key stays a plain key', () => {
    const template = JSON.parse('{"${event}":"${event}","__proto__":{"x":"${vault.name}"}}') as unknown;
    const out = interpolate(template, payload) as Record<string, unknown>;
    assert.equal(out['${event}'], 'task.created');
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { x: 'Notes' });
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
  });
});

describe('applyTransform', () => {
  const files = {
    'hooks/t.json': JSON.stringify({
      'task.created': { text: 'New: ${data.task.title}' },
      default: { text: 'Event ${event}' },
    }),
    'hooks/only-created.json': JSON.stringify({ 'task.created': { a: 1 } }),
    'hooks/bad.json': '{"task.created": ',
    'hooks/array.json': '[1,2]',
    'hooks/empty.json': '  \n',
    'hooks/t.js': 'module.exports = () => ({})',
  };
  const reader = memoryReader(files);

  it('uses the exact event key first', async () => {
    const r = await applyTransform(reader, 'hooks/t.json', 'task.created', payload);
    assert.deepEqual(r, { payload: { text: 'New: Buy milk' } });
  });

  it('falls back to the default key', async () => {
    const r = await applyTransform(reader, 'hooks/t.json', 'task.deleted', {
      ...payload,
      event: 'task.deleted',
    });
    assert.deepEqual(r, { payload: { text: 'Event task.deleted' } });
  });

  const failures: Array<[string, string, RegExp]> = [
    [
      'missing file',
      'hooks/missing.json',
      /Failed to read template file 'hooks\/missing.json': file not found/,
    ],
    ['bad JSON', 'hooks/bad.json', /Invalid JSON in template file 'hooks\/bad.json'/],
    ['non-object', 'hooks/array.json', /expected an object with event templates/],
    ['empty file', 'hooks/empty.json', /is empty/],
    [
      'no matching key',
      'hooks/only-created.json',
      /No template found for event 'task.deleted'.*Available templates: task.created/,
    ],
    ['.js file', 'hooks/t.js', /JavaScript webhook transforms are no longer supported/],
    ['other extension', 'hooks/t.txt', /not a \.json template/],
  ];
  for (const [what, file, message] of failures) {
    it(`falls back to the original payload on ${what}`, async () => {
      const r = await applyTransform(reader, file, 'task.deleted', payload);
      assert.equal(r.payload, payload);
      assert.match(r.error ?? '', message);
    });
  }

  describe('with the vault reader', () => {
    let vault: Awaited<ReturnType<typeof tempDir>>;
    before(async () => {
      vault = await tempDir('taskdown-tx-vault-');
      await writeFiles(vault.dir, {
        'hooks/t.json': '{"default":{"v":"${vault.name}"}}',
        '.obsidian/t.json': '{"default":{"v":"secret"}}',
      });
    });
    after(async () => {
      await vault.cleanup();
    });

    it('reads the template from the vault', async () => {
      const r = await applyTransform(
        createVaultFileReader({ root: vault.dir, dataDir: `${vault.dir}/.taskdown` }),
        'hooks/t.json',
        'task.created',
        payload,
      );
      assert.deepEqual(r, { payload: { v: 'Notes' } });
    });

    for (const escape of ['../x.json', 'x/../../x.json', '/etc/passwd.json', '.obsidian/t.json']) {
      it(`refuses the path ${escape}`, async () => {
        const reader2 = createVaultFileReader({ root: vault.dir, dataDir: `${vault.dir}/.taskdown` });
        const r = await applyTransform(reader2, escape, 'task.created', payload);
        assert.equal(r.payload, payload);
        assert.match(r.error ?? '', /Invalid transform file/);
      });
    }
  });
});
