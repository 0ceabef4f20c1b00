/**
 * NLP golden cases against the real server: the same text gives the same parsed fields as the
 * TaskNotes plugin (its observed examples plus one case per feature), with a fixed
 * reference instant (Sunday 2026-11-22 05:02 UTC) and the server in UTC / en-US.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server-process.js';

const REF = '2026-11-22T05:02:00.000Z';

type Expect = Record<string, unknown>;
/** [input, expected parsed fields]; `tags`, `contexts`, `projects` default to []. */
const CASES: Array<[string, Expect]> = [
  // Reference observations (§3.6)
  [
    'Review PR #123 tomorrow high priority @work',
    {
      title: 'Review PR priority',
      tags: ['123'],
      contexts: ['work'],
      priority: 'high',
      scheduledDate: '2026-11-23',
    },
  ],
  [
    'Call mom due friday 2pm #personal',
    { title: 'Call mom', dueDate: '2026-11-27', dueTime: '14:00', tags: ['personal'] },
  ],
  [
    'Write report +[[Project X]] +alpha scheduled for next monday 9am 2h30m',
    {
      title: 'Write report',
      projects: ['[[Project X]]', 'alpha'],
      estimate: 150,
      scheduledDate: '2026-11-23',
      scheduledTime: '09:00',
    },
  ],
  [
    'Finish due tomorrow at 3pm scheduled today',
    { title: 'Finish', dueDate: '2026-11-23', dueTime: '15:00', scheduledDate: '2026-11-22' },
  ],
  [
    'Plan trip from tomorrow to next friday',
    { title: 'Plan trip from', scheduledDate: '2026-11-23', dueDate: '2026-11-27' },
  ],
  ['Open the door', { title: 'the door', status: 'open' }],
  ['Something none', { title: 'Something', priority: 'none' }],
  ['Draft email urgent', { title: 'Draft email urgent' }],
  ['Pay rent every first monday', { title: 'Pay rent', recurrence: 'FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1' }],
  [
    'Standup every monday at 10am',
    {
      title: 'Standup',
      recurrence: 'FREQ=WEEKLY;BYDAY=MO',
      scheduledDate: '2026-11-22',
      scheduledTime: '10:00',
    },
  ],
  ['Team sync weekly on tuesdays', { title: 'Team sync weekly on', recurrence: 'FREQ=WEEKLY;BYDAY=TU' }],
  ['Pay bill 03/04/2026', { title: 'Pay bill', scheduledDate: '2026-03-04' }],
  ['Buy milk\nline2\nline3', { title: 'Buy milk', details: 'line2\nline3' }],
  ['"Meet at 5pm" tomorrow', { title: 'Meet at 5pm', scheduledDate: '2026-11-23' }],
  ['Fix !high bug', { title: 'Fix bug', priority: 'high' }],
  ['Task *In progress*', { title: 'Task *', status: 'in-progress' }],
  ['Deadline by friday', { title: 'Deadline by', scheduledDate: '2026-11-27' }],
  ['   ', { title: 'Untitled Task' }],
  // Dates and times
  ['Dentist tomorrow at 9:30am', { title: 'Dentist', scheduledDate: '2026-11-23', scheduledTime: '09:30' }],
  ['Submit form due next friday', { title: 'Submit form', dueDate: '2026-11-27' }],
  ['Report deadline december 1', { title: 'Report', dueDate: '2026-12-01' }],
  ['Water plants in 3 days', { title: 'Water plants', scheduledDate: '2026-11-25' }],
  ['Sprint review on 2026-12-15', { title: 'Sprint review', scheduledDate: '2026-12-15' }],
  ['Archive photos 2026/12/24', { title: 'Archive photos', scheduledDate: '2026-12-24' }],
  ['Call bank at 4pm', { title: 'Call bank', scheduledDate: '2026-11-22', scheduledTime: '16:00' }],
  ['Lunch with Sam jan 5', { title: 'Lunch with Sam', scheduledDate: '2027-01-05' }],
  // Tags, contexts, projects
  ['Plan #work/q1 #home-office', { title: 'Plan', tags: ['work/q1', 'home-office'] }],
  ['Email @office @phone', { title: 'Email', contexts: ['office', 'phone'] }],
  ['Ship +launch +launch', { title: 'Ship', projects: ['launch'] }],
  ['Read +[[Books/Dune|Dune]]', { title: 'Read', projects: ['[[Books/Dune|Dune]]'] }],
  ['Café #über @zuhause', { title: 'Café', tags: ['über'], contexts: ['zuhause'] }],
  // Priority and status words
  ['Fix login low', { title: 'Fix login', priority: 'low' }],
  ['Normal checkup', { title: 'checkup', priority: 'normal' }],
  ['Deploy *done', { title: 'Deploy', status: 'done' }],
  ['Refactor in progress', { title: 'Refactor', status: 'in-progress' }],
  ['Highway trip', { title: 'Highway trip' }],
  // Estimates
  ['Write tests 45min', { title: 'Write tests', estimate: 45 }],
  ['Clean garage 2 hours', { title: 'Clean garage', estimate: 120 }],
  ['Review 1h 30m', { title: 'Review', estimate: 90 }],
  // Recurrence
  ['Gym every 2 weeks', { title: 'Gym', recurrence: 'FREQ=WEEKLY;INTERVAL=2' }],
  ['Backup every other day', { title: 'Backup', recurrence: 'FREQ=DAILY;INTERVAL=2' }],
  ['Pay invoice monthly', { title: 'Pay invoice', recurrence: 'FREQ=MONTHLY' }],
  ['Taxes yearly', { title: 'Taxes', recurrence: 'FREQ=YEARLY' }],
  ['Retro every last friday', { title: 'Retro', recurrence: 'FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1' }],
  ['Standup daily', { title: 'Standup', recurrence: 'FREQ=DAILY' }],
  // Escapes and quotes
  ['Fix \\#hash', { title: 'Fix #hash' }],
  ['Email \\@alice about it', { title: 'Email @alice about it' }],
  ['Watch "Tomorrow never dies"', { title: 'Watch Tomorrow never dies' }],
  ['Read \\today newsletter', { title: 'Read today newsletter' }],
];

describe('NLP golden cases (POST /api/nlp/parse)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      startTimeoutMs: 60_000,
      env: { TZ: 'UTC', LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' },
    });
  });
  after(() => server?.cleanup());

  it(`has at least 40 cases`, () => assert.ok(CASES.length >= 40));

  for (const [text, expected] of CASES) {
    it(JSON.stringify(text), async () => {
      const res = await server.request('POST', '/api/nlp/parse', { text, referenceDate: REF });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.success, true);
      const want = { tags: [], contexts: [], projects: [], ...expected };
      assert.deepEqual(res.body.data.parsed, want);
    });
  }
});
