/**
 * The field table against the running server: the OpenAPI document's create and PUT bodies list
 * every field the server accepts, and every field a body may carry is really written to the note.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { DEFAULT_FIELD_MAPPING } from '../../src/core/tasks/field-mapping.js';
import { TASK_FIELDS } from '../../src/core/tasks/task-fields.js';
import { encodeId, startTestServer, type TestServer } from '../helpers/server-process.js';

const TASK = `---
title: Subject
status: open
due: 2026-03-01
dateCreated: 2026-02-01T09:00:00.000+01:00
dateModified: 2026-02-01T09:00:00.000+01:00
tags:
  - task
---
`;

type Schema = { properties?: Record<string, unknown> };

/** Is `expected` found in `actual`: part of a string (a rule gains DTSTART), each element of a list, each key of an object. */
function contains(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'string') return typeof actual === 'string' && actual.includes(expected);
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.every((e) => actual.some((a) => contains(a, e)));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
  }
  return actual === expected;
}

/** Fields that are valid only together (an occurrence note names its parent and its day). */
const COMPANIONS: Record<string, Record<string, unknown>> = {
  recurrence_parent: { occurrence_date: '2026-03-02' },
  occurrence_date: { recurrence_parent: '[[Weekly review]]' },
};

/** Where a field's example shows in the note's frontmatter (blockedBy uids and links as written). */
function writtenForm(prop: string, example: unknown): unknown {
  if (prop === 'tags') return ['task', ...(example as string[])];
  if (prop === 'archived') return undefined;
  return example;
}

describe('task field table', () => {
  let server: TestServer;
  let paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>
  >;
  before(async () => {
    server = await startTestServer({ files: { 'Subject.md': TASK } });
    paths = (await server.request('GET', '/api/docs')).body.paths;
  });
  after(() => server.cleanup());

  const bodyOf = (url: string, method: string): string[] =>
    Object.keys(paths[url]?.[method]?.requestBody?.content['application/json']?.schema.properties ?? {});

  it('documents every field PUT accepts, and no other', () => {
    const documented = new Set(bodyOf('/api/tasks/{id}', 'put'));
    const accepted = TASK_FIELDS.filter((f) => f.update).map((f) => f.prop);
    for (const prop of accepted) assert.ok(documented.has(prop), `PUT body in /api/docs lacks ${prop}`);
    const extras = [...documented].filter((key) => !accepted.includes(key)).sort();
    assert.deepEqual(extras, ['customFrontmatter', 'customProperties', 'details']);
  });

  it('documents every field POST /api/tasks accepts', () => {
    const documented = new Set(bodyOf('/api/tasks', 'post'));
    for (const field of TASK_FIELDS.filter((f) => f.create)) {
      assert.ok(documented.has(field.prop), `create body in /api/docs lacks ${field.prop}`);
    }
  });

  for (const field of TASK_FIELDS.filter((f) => f.update)) {
    it(`PUT writes ${field.prop}`, async () => {
      const res = await server.request('PUT', `/api/tasks/${encodeId('Subject.md')}`, {
        ...COMPANIONS[field.prop],
        [field.prop]: field.example,
      });
      assert.equal(res.status, 200, res.text);
      const id = res.body.data.id as string;
      if (field.prop === 'archived') assert.equal(res.body.data.archived, true);
      const text = await readFile(path.join(server.vault, id), 'utf8');
      const frontmatter = parse(text.split('---\n')[1] as string) as Record<string, unknown>;
      const key = field.mapping ? DEFAULT_FIELD_MAPPING[field.mapping] : 'tags';
      const expected = writtenForm(field.prop, field.example);
      if (field.prop !== 'title' && expected !== undefined) {
        assert.ok(contains(frontmatter[key], expected), `${key}: ${JSON.stringify(frontmatter[key])}`);
      }
      // Leave the note as it was for the next field (a title change renamed it).
      if (id !== 'Subject.md') {
        const back = await server.request('PUT', `/api/tasks/${encodeId(id)}`, { title: 'Subject' });
        assert.equal(back.body.data.id, 'Subject.md');
      }
    });
  }

  it('PUT never takes a client dateModified', async () => {
    const res = await server.request('PUT', `/api/tasks/${encodeId('Subject.md')}`, {
      dateModified: '2000-01-01T00:00:00Z',
      priority: 'low',
    });
    assert.equal(res.status, 200);
    assert.notEqual(res.body.data.dateModified, '2000-01-01T00:00:00Z');
  });

  it('POST /api/tasks writes every field it accepts', async () => {
    const body: Record<string, unknown> = {};
    for (const field of TASK_FIELDS.filter((f) => f.create)) body[field.prop] = field.example;
    body.title = 'Created with everything';
    const res = await server.request('POST', '/api/tasks', body);
    assert.equal(res.status, 201, res.text);
    const text = await readFile(path.join(server.vault, res.body.data.id as string), 'utf8');
    const frontmatter = parse(text.split('---\n')[1] as string) as Record<string, unknown>;
    for (const field of TASK_FIELDS.filter((f) => f.create && f.prop !== 'title')) {
      const key = field.mapping ? DEFAULT_FIELD_MAPPING[field.mapping] : 'tags';
      const expected = writtenForm(field.prop, field.example);
      // A recurring task has no completedDate (completion is per instance).
      if (field.prop === 'completedDate') continue;
      assert.ok(contains(frontmatter[key], expected), `${key}: ${JSON.stringify(frontmatter[key])}`);
    }
  });
});
