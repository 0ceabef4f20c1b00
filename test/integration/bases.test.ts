/** POST /api/bases/default-files/update against the real server (as in the TaskNotes plugin). */
import assert from 'node:assert/strict';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

const ROUTE = '/api/bases/default-files/update';
const V = 'TaskNotes/Views';
const DEFAULT_PATHS = [
  `${V}/mini-calendar-default.base`,
  `${V}/kanban-default.base`,
  `${V}/tasks-default.base`,
  `${V}/calendar-default.base`,
  `${V}/agenda-default.base`,
  `${V}/pomodoro-stats.base`,
  `${V}/relationships.base`,
];

interface BaseFile {
  filters?: { and: unknown[] };
  formulas?: Record<string, string>;
  views: Array<Record<string, any>>;
}

describe('default base files with default settings', () => {
  let server: TestServer;
  const read = async (rel: string): Promise<{ text: string; yaml: BaseFile }> => {
    const text = await readFile(path.join(server.vault, rel), 'utf8');
    return { text, yaml: parse(text) as BaseFile };
  };
  before(async () => {
    server = await startTestServer({ startTimeoutMs: 60_000 });
  });
  after(() => server?.cleanup());

  it('creates every default file, then reports them as updated', async () => {
    const first = await server.request('POST', ROUTE);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, {
      success: true,
      data: { created: DEFAULT_PATHS, updated: [], skipped: [] },
    });
    const second = await server.request('POST', ROUTE, {});
    assert.deepEqual(second.body.data, { created: [], updated: DEFAULT_PATHS, skipped: [] });
  });

  it('writes the task filter, the shared formulas and the order columns', async () => {
    const { text, yaml } = await read(`${V}/kanban-default.base`);
    assert.match(text, /^# Kanban Board\n/);
    assert.deepEqual(yaml.filters, { and: ['file.hasTag("task")'] });
    assert.equal(
      yaml.formulas?.priorityWeight,
      'if(priority=="none",0,if(priority=="low",1,if(priority=="normal",2,if(priority=="high",3,999))))',
    );
    assert.equal(
      yaml.formulas?.isOverdue,
      '(due.isEmpty() == false) && date(due) < today() && status != "done"',
    );
    assert.ok(Object.keys(yaml.formulas ?? {}).length >= 40);
    const [view] = yaml.views;
    assert.equal(view?.type, 'tasknotesKanban');
    assert.deepEqual(view?.groupBy, { property: 'status', direction: 'ASC' });
    assert.deepEqual(view?.order, [
      'status',
      'priority',
      'due',
      'scheduled',
      'projects',
      'contexts',
      'file.tags',
      'blockedBy',
      'file.name',
      'recurrence',
      'complete_instances',
      'file.tasks',
    ]);
    assert.deepEqual(view?.sort, [{ column: 'tasknotes_manual_order', direction: 'DESC' }]);
  });

  it('writes the documented views of each file', async () => {
    const names = async (rel: string) => (await read(rel)).yaml.views.map((v) => [v.type, v.name]);
    assert.deepEqual(await names(`${V}/tasks-default.base`), [
      ['tasknotesTaskList', 'Manual Order'],
      ['tasknotesTaskList', 'All Tasks'],
      ['tasknotesTaskList', 'Not Blocked'],
      ['tasknotesTaskList', 'Today'],
      ['tasknotesTaskList', 'Overdue'],
      ['tasknotesTaskList', 'This Week'],
      ['tasknotesTaskList', 'Unscheduled'],
    ]);
    assert.deepEqual(await names(`${V}/mini-calendar-default.base`), [
      ['tasknotesMiniCalendar', 'Due'],
      ['tasknotesMiniCalendar', 'Scheduled'],
      ['tasknotesMiniCalendar', 'Created'],
      ['tasknotesMiniCalendar', 'Modified'],
    ]);
    assert.deepEqual(await names(`${V}/relationships.base`), [
      ['tasknotesKanban', 'Subtasks'],
      ['tasknotesTaskList', 'Projects'],
      ['tasknotesTaskList', 'Blocked By'],
      ['tasknotesKanban', 'Blocking'],
    ]);
    const relationships = await read(`${V}/relationships.base`);
    assert.equal(relationships.yaml.filters, undefined, 'no top-level task filter');
    const calendar = (await read(`${V}/calendar-default.base`)).yaml.views[0];
    assert.equal(calendar?.options.calendarView, 'timeGridWeek');
    const agenda = (await read(`${V}/agenda-default.base`)).yaml.views[0];
    assert.equal(agenda?.calendarView, 'listWeek');
    assert.ok(agenda?.order.includes('formula.dueIn'));
    const today = (await read(`${V}/tasks-default.base`)).yaml.views[3];
    assert.deepEqual(today?.filters.and[0], {
      or: [
        { and: ['recurrence.isEmpty()', 'status != "done"'] },
        {
          and: [
            'recurrence.isEmpty() == false',
            'complete_instances.map(date(value).format("YYYY-MM-DD")).contains(today().format("YYYY-MM-DD")) != true',
          ],
        },
      ],
    });
    const pomodoro = await read(`${V}/pomodoro-stats.base`);
    assert.match(pomodoro.text, /^# Pomodoro statistics\n# Generated with your TaskNotes settings\n/);
    assert.deepEqual(pomodoro.yaml.filters?.and[0], 'file.hasProperty("pomodoros")');
  });
});

describe('default base files with custom settings', () => {
  let server: TestServer;
  before(async () => {
    const data = {
      taskIdentificationMethod: 'property',
      taskPropertyName: 'Is Task',
      taskPropertyValue: 'true',
      excludedFolders: 'Archive, Templates',
      fieldMapping: { due: 'deadline', status: 'state' },
      customStatuses: [
        { value: 'todo', label: 'To do', isCompleted: false },
        { value: 'closed', label: 'Closed', isCompleted: true },
        { value: 'dropped', label: 'Dropped', isCompleted: true },
      ],
      defaultVisibleProperties: ['status', 'due', 'user:field_1', 'title'],
      userFields: [{ id: 'field_1', displayName: 'Owner', key: 'owner', type: 'text' }],
      commandFileMapping: {
        'open-kanban-view': 'Boards/My Kanban.base',
        'open-tasks-view': '',
        'open-agenda-view': '.obsidian/agenda.base',
        'open-advanced-calendar-view': 'Occupied',
        'my-own-command': 'Custom/thing.base',
        relationships: '../outside.base',
      },
    };
    server = await startTestServer({
      startTimeoutMs: 60_000,
      files: { '.obsidian/plugins/tasknotes/data.json': JSON.stringify(data) },
    });
    await mkdir(path.join(server.vault, 'Occupied'));
  });
  after(() => server?.cleanup());

  it('uses the mapping, skips unknown commands and unsafe or occupied paths', async () => {
    const res = await server.request('POST', ROUTE);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, {
      created: [`${V}/mini-calendar-default.base`, 'Boards/My Kanban.base', `${V}/pomodoro-stats.base`],
      updated: [],
      // Default commands in their fixed order, then the user's own entries.
      skipped: ['Occupied', '.obsidian/agenda.base', '../outside.base', 'Custom/thing.base'],
    });
    await assert.rejects(stat(path.join(server.vault, '.obsidian/agenda.base')));
    await assert.rejects(stat(path.join(server.vault, '..', 'outside.base')));
    await assert.rejects(stat(path.join(server.vault, V, 'tasks-default.base')));
  });

  it('generates filters and formulas from the settings', async () => {
    const yaml = parse(await readFile(path.join(server.vault, 'Boards/My Kanban.base'), 'utf8')) as BaseFile;
    assert.deepEqual(yaml.filters, {
      and: ['note["Is Task"] == true', '!file.inFolder("Archive")', '!file.inFolder("Templates")'],
    });
    assert.equal(
      yaml.formulas?.isOverdue,
      '(deadline.isEmpty() == false) && date(deadline) < today() && state != "closed" && state != "dropped"',
    );
    assert.deepEqual(yaml.views[0]?.groupBy, { property: 'state', direction: 'ASC' });
    assert.deepEqual(yaml.views[0]?.order, [
      'state',
      'deadline',
      'owner',
      'file.name',
      'recurrence',
      'complete_instances',
      'file.tasks',
    ]);
  });
});
