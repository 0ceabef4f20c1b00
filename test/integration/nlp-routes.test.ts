/** POST /api/nlp/parse and /api/nlp/create against the real server (as in the TaskNotes plugin). */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestServer, waitFor, type TestServer } from '../helpers/server-process.js';

const REF = '2026-11-22T05:02:00.000Z';
const ENV = { TZ: 'UTC', LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' };
const TEXT_REQUIRED = 'Text field is required and must be a string';

describe('NLP routes with default settings', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startTestServer({ startTimeoutMs: 60_000, env: ENV });
    receiver = await startReceiver();
    const hook = await server.request('POST', '/api/webhooks', {
      url: receiver.url,
      events: ['task.created'],
    });
    assert.equal(hook.status, 201, hook.text);
  });
  after(async () => {
    await server?.cleanup();
    await receiver?.close();
  });

  it('rejects missing, empty and non-string text with the reference message', async () => {
    for (const route of ['/api/nlp/parse', '/api/nlp/create']) {
      for (const body of [{}, { text: '' }, { text: 42 }, { text: null }, { text: ['a'] }]) {
        const res = await server.request('POST', route, body);
        assert.equal(res.status, 400, `${route} ${JSON.stringify(body)}`);
        assert.deepEqual(res.body, { success: false, error: TEXT_REQUIRED });
      }
    }
  });

  it('rejects malformed JSON and an unparsable referenceDate', async () => {
    const bad = await server.request('POST', '/api/nlp/parse', '{"text":');
    assert.deepEqual([bad.status, bad.body], [400, { success: false, error: 'Invalid JSON' }]);
    for (const referenceDate of ['soon', '2026-02-30', '2026-11-31T09:00:00Z']) {
      const ref = await server.request('POST', '/api/nlp/parse', { text: 'x tomorrow', referenceDate });
      assert.equal(ref.status, 400, referenceDate);
      assert.equal(ref.body.error, 'referenceDate must be an ISO 8601 date or date-time');
    }
  });

  it('limits the text by characters, not UTF-16 units', async () => {
    const emoji = await server.request('POST', '/api/nlp/parse', { text: '🎉'.repeat(6_000) });
    assert.equal(emoji.status, 200, emoji.text);
    const long = await server.request('POST', '/api/nlp/parse', { text: 'a'.repeat(10_001) });
    assert.equal(long.status, 400);
    assert.match(long.body.error, /at most 10,000 characters/);
  });

  it('parses into parsed fields and creation data without touching the vault', async () => {
    const res = await server.request('POST', '/api/nlp/parse', {
      text: 'Call mom due friday 2pm #personal @phone +family 1h every week\nBring photos',
      referenceDate: REF,
    });
    assert.equal(res.status, 200, res.text);
    const { parsed, taskData } = res.body.data;
    assert.deepEqual(parsed, {
      title: 'Call mom',
      details: 'Bring photos',
      tags: ['personal'],
      contexts: ['phone'],
      projects: ['family'],
      recurrence: 'FREQ=WEEKLY',
      estimate: 60,
      dueDate: '2026-11-27',
      dueTime: '14:00',
    });
    const { dateCreated, dateModified, ...rest } = taskData;
    assert.match(dateCreated, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);
    assert.equal(dateModified, dateCreated);
    assert.deepEqual(rest, {
      title: 'Call mom',
      status: 'open',
      priority: 'normal',
      due: '2026-11-27T14:00',
      tags: ['personal'],
      contexts: ['phone'],
      projects: ['family'],
      details: 'Bring photos',
      recurrence: 'FREQ=WEEKLY',
      timeEstimate: 60,
    });
    const list = await server.request('GET', '/api/tasks');
    assert.equal(list.status, 200);
    assert.equal(list.body.data.tasks.length, 0, 'parse writes nothing');
  });

  it('creates the task like POST /api/tasks and emits task.created with source nlp', async () => {
    const text = 'Buy milk tomorrow high #errand @shop';
    const res = await server.request('POST', '/api/nlp/create', { text, referenceDate: REF });
    assert.equal(res.status, 201, res.text);
    const { task, parsed } = res.body.data;
    assert.equal(parsed.title, 'Buy milk');
    assert.equal(task.title, 'Buy milk');
    assert.equal(task.priority, 'high');
    assert.equal(task.scheduled, '2026-11-23');
    assert.deepEqual(task.contexts, ['shop']);
    assert.ok(task.tags.includes('errand') && task.tags.includes('task'), 'identification tag added');
    const note = await readFile(path.join(server.vault, task.path), 'utf8');
    assert.match(note, /scheduled: ["']?2026-11-23/);
    assert.match(note, /priority: high/);

    const [delivery] = await receiver.waitFor(1);
    assert.equal(delivery?.body.event, 'task.created');
    assert.equal(delivery?.body.data.source, 'nlp');
    assert.equal(delivery?.body.data.originalText, text);
    assert.equal(delivery?.body.data.task.path, task.path);
  });
});

describe('NLP configured from the vault TaskNotes settings', () => {
  let server: TestServer;
  before(async () => {
    const data = {
      customStatuses: [
        { id: 'todo', value: 'todo', label: 'To do', color: '#888', isCompleted: false, order: 0 },
        { id: 'waiting', value: 'waiting', label: 'Waiting', color: '#888', isCompleted: false, order: 1 },
        { id: 'closed', value: 'closed', label: 'Closed', color: '#888', isCompleted: true, order: 2 },
      ],
      customPriorities: [
        { id: 'p1', value: 'p1', label: 'Urgent', color: '#f00', weight: 3 },
        { id: 'p3', value: 'p3', label: 'Later', color: '#0f0', weight: 1 },
      ],
      defaultTaskStatus: 'todo',
      defaultTaskPriority: 'p3',
      nlpDefaultToScheduled: false,
      nlpTriggers: {
        triggers: [
          { propertyId: 'tags', trigger: '#', enabled: true },
          { propertyId: 'contexts', trigger: '@', enabled: true },
          { propertyId: 'projects', trigger: '+', enabled: true },
          { propertyId: 'status', trigger: '*', enabled: true },
          { propertyId: 'priority', trigger: '!', enabled: true },
          { propertyId: 'owner', trigger: 'owner:', enabled: true },
          { propertyId: 'billable', trigger: 'bill:', enabled: true },
          { propertyId: 'labels', trigger: '~', enabled: true },
          { propertyId: 'when', trigger: 'when:', enabled: true },
        ],
      },
      userFields: [
        { id: 'owner', displayName: 'Owner', key: 'assignee', type: 'text' },
        { id: 'billable', displayName: 'Billable', key: 'billable', type: 'boolean' },
        { id: 'labels', displayName: 'Labels', key: 'labels', type: 'list' },
        { id: 'when', displayName: 'Follow-up', key: 'followUp', type: 'date' },
      ],
    };
    server = await startTestServer({
      startTimeoutMs: 60_000,
      env: ENV,
      files: { '.obsidian/plugins/tasknotes/data.json': JSON.stringify(data) },
    });
  });
  after(() => server?.cleanup());

  it('uses configured statuses, priorities, defaults, triggers and user fields', async () => {
    const res = await server.request('POST', '/api/nlp/parse', {
      text: 'Invoice client !urgent *waiting owner:jane bill:true ~finance ~q4 friday',
      referenceDate: REF,
    });
    assert.equal(res.status, 200, res.text);
    const { parsed, taskData } = res.body.data;
    assert.equal(parsed.title, 'Invoice client');
    assert.equal(parsed.priority, 'p1');
    assert.equal(parsed.status, 'waiting');
    assert.equal(parsed.dueDate, '2026-11-27', 'nlpDefaultToScheduled false sends bare dates to due');
    assert.deepEqual(parsed.userFields, { owner: 'jane', billable: true, labels: ['finance', 'q4'] });
    assert.deepEqual(taskData.customFrontmatter, { assignee: 'jane', billable: true, labels: 'finance, q4' });
    assert.equal(taskData.due, '2026-11-27');
  });

  it('falls back to the configured default status and priority', async () => {
    const res = await server.request('POST', '/api/nlp/parse', { text: 'Plain words', referenceDate: REF });
    assert.equal(res.body.data.taskData.status, 'todo');
    assert.equal(res.body.data.taskData.priority, 'p3');
    assert.equal(res.body.data.parsed.priority, undefined);
  });

  it('reads date user fields as dates', async () => {
    const res = await server.request('POST', '/api/nlp/parse', {
      text: 'Call back when:tomorrow',
      referenceDate: REF,
    });
    assert.equal(res.body.data.parsed.userFields.when, '2026-11-23');
    assert.equal(res.body.data.taskData.customFrontmatter.followUp, '2026-11-23');
    assert.equal(res.body.data.parsed.title, 'Call back');
  });

  it('reads linked user-field values', async () => {
    const res = await server.request('POST', '/api/nlp/parse', {
      text: 'Sync owner:[[Jane Doe]] about plan',
      referenceDate: REF,
    });
    assert.equal(res.body.data.parsed.userFields.owner, '[[Jane Doe]]');
    assert.equal(res.body.data.parsed.title, 'Sync about plan');
  });
});

describe('NLP language setting', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      startTimeoutMs: 60_000,
      env: ENV,
      files: { '.obsidian/plugins/tasknotes/data.json': JSON.stringify({ nlpLanguage: 'de' }) },
    });
  });
  after(() => server?.cleanup());

  it('parses German date phrases', async () => {
    const res = await server.request('POST', '/api/nlp/parse', {
      text: 'Bericht schreiben morgen',
      referenceDate: REF,
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.parsed.scheduledDate, '2026-11-23');
    assert.equal(res.body.data.parsed.title, 'Bericht schreiben');
  });

  it('follows edits of data.json without a restart', async () => {
    await writeFile(
      path.join(server.vault, '.obsidian/plugins/tasknotes/data.json'),
      JSON.stringify({ nlpLanguage: 'en', nlpDefaultToScheduled: false }),
    );
    const parsed = await waitFor(async () => {
      const res = await server.request('POST', '/api/nlp/parse', {
        text: 'Report tomorrow',
        referenceDate: REF,
      });
      return res.body.data.parsed.dueDate ? res.body.data.parsed : undefined;
    });
    assert.deepEqual([parsed.title, parsed.dueDate], ['Report', '2026-11-23']);
  });

  it('follows an edit of the triggers without a restart', async () => {
    await writeFile(
      path.join(server.vault, '.obsidian/plugins/tasknotes/data.json'),
      JSON.stringify({ nlpTriggers: { triggers: [{ propertyId: 'tags', trigger: '%', enabled: true }] } }),
    );
    const parsed = await waitFor(async () => {
      const res = await server.request('POST', '/api/nlp/parse', {
        text: 'Report %work',
        referenceDate: REF,
      });
      return res.body.data.parsed.tags?.length ? res.body.data.parsed : undefined;
    });
    assert.deepEqual([parsed.title, parsed.tags], ['Report', ['work']]);
  });
});
