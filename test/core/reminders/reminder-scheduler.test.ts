/** The reminder scheduler on a manual clock: timing, once-only, re-planning, restarts, catch-up. */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { EventBus, type DomainEvent } from '../../../src/core/events/bus.js';
import type { Logger } from '../../../src/core/logger.js';
import { ReminderBookkeeping } from '../../../src/core/reminders/bookkeeping.js';
import { ReminderScheduler } from '../../../src/core/reminders/reminder-scheduler.js';
import { StateFileError } from '../../../src/core/state/json-file.js';
import { openStore, type Store } from '../../../src/core/store/database.js';
import { EventJournal } from '../../../src/core/store/event-journal.js';
import type { TaskInfo } from '../../../src/core/tasks/task-info.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { sampleTask } from '../../helpers/sample-task.js';
import { tempDir } from '../../helpers/temp.js';

const START = Date.UTC(2026, 0, 15, 9, 0, 0);
const iso = (ms: number): string => new Date(ms).toISOString();

function makeTask(path: string, extra: Partial<TaskInfo> = {}): TaskInfo {
  return sampleTask({ id: path, path, title: path.replace('.md', ''), tags: [], ...extra });
}

/** A vault index stand-in plus a bus; `change` updates a task and emits like the task service. */
class World {
  readonly tasks = new Map<string, TaskInfo>();
  readonly events: DomainEvent[] = [];
  readonly logs: string[] = [];
  readonly bus: EventBus;
  private store: Store | undefined;
  private running: ReminderScheduler | undefined;
  constructor(readonly clock: ManualClock) {
    this.bus = new EventBus(clock, this.log);
    this.bus.on('reminder.triggered', (e) => this.events.push(e));
  }
  readonly log: Logger = {
    debug: () => {},
    info: (_o, msg) => void this.logs.push(String(msg)),
    warn: () => {},
    error: (_o, msg) => void this.logs.push(`error ${String(msg)}`),
  };
  put(task: TaskInfo): void {
    const previous = this.tasks.get(task.path);
    this.tasks.set(task.path, task);
    if (previous) this.bus.emit('task.updated', { task, previous });
    else this.bus.emit('task.created', { task });
  }
  remove(taskPath: string): void {
    const task = this.tasks.get(taskPath) as TaskInfo;
    this.tasks.delete(taskPath);
    this.bus.emit('task.deleted', { task });
  }
  /** A scheduler on the data dir's store, started; with `journal`, the bus's events are journaled there. */
  async scheduler(dataDir: string, { journal = false } = {}): Promise<ReminderScheduler> {
    this.store = openStore(dataDir);
    if (journal) new EventJournal(this.store, { name: 'vault', path: dataDir }, this.log).attach(this.bus);
    const bookkeeping = await ReminderBookkeeping.open(this.store, dataDir, this.log);
    const s = new ReminderScheduler({
      clock: this.clock,
      events: this.bus,
      log: this.log,
      tasks: {
        has: (p) => this.tasks.has(p),
        pathsWith: () => [...this.tasks.values()].filter((t) => t.reminders !== undefined).map((t) => t.path),
        find: (p) => this.tasks.get(p),
      },
      bookkeeping,
    });
    await s.start();
    this.running = s;
    return s;
  }
  /** The open store (after `scheduler`). */
  get openStore(): Store {
    return this.store!;
  }
  /** Stops the scheduler and closes its store, as a server stop does. */
  async close(): Promise<void> {
    this.running?.stop();
    await this.store?.close();
  }
  fired(): Array<{ id: string; at: number; notificationTime: string; message: string }> {
    return this.events.map((e) => {
      const d = e.data as { reminder: { id: string }; notificationTime: string; message: string };
      return { id: d.reminder.id, at: e.at, notificationTime: d.notificationTime, message: d.message };
    });
  }
}

const absolute = (id: string, at: number) => ({ id, type: 'absolute', absoluteTime: iso(at) });

/** The records in the data dir's store, as [task, reminder, fire time, outcome]. */
async function storedRecords(dataDir: string): Promise<Array<[string, string, string, string]>> {
  const store = openStore(dataDir);
  const rows = store.db
    .prepare<[], { task: string; reminder: string; fire_time: number; outcome: string }>(
      'SELECT task, reminder, fire_time, outcome FROM reminders_handled ORDER BY task, reminder',
    )
    .all();
  await store.close();
  return rows.map((r) => [r.task, r.reminder, iso(r.fire_time), r.outcome]);
}

describe('ReminderScheduler', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir('reminders-')));
  afterEach(() => cleanup());

  it('fires absolute and relative reminders exactly at their time, once', async () => {
    const world = new World(new ManualClock(START));
    world.tasks.set('A.md', makeTask('A.md', { reminders: [absolute('abs', START + 10_000)] }));
    world.tasks.set(
      'B.md',
      makeTask('B.md', {
        due: iso(START + 3_600_000),
        reminders: [{ id: 'rel', type: 'relative', relatedTo: 'due', offset: '-PT59M' }],
      }),
    );
    const s = await world.scheduler(dir);
    assert.equal(s.pending(), 2);
    await world.clock.advance(9_999);
    assert.equal(world.events.length, 0);
    await world.clock.advance(1);
    assert.deepEqual(world.fired(), [
      { id: 'abs', at: START + 10_000, notificationTime: iso(START + 10_000), message: 'Reminder: A' },
    ]);
    await world.clock.advance(50_000);
    assert.equal(world.fired()[1]?.id, 'rel');
    assert.equal(world.fired()[1]?.at, START + 60_000);
    assert.equal(world.fired()[1]?.message, 'B is due in 59 minutes');
    const data = world.events[0]?.data as { task: TaskInfo; notificationType: string };
    assert.equal(data.task.path, 'A.md');
    assert.equal(data.notificationType, 'system');
    // An unrelated edit after firing does not fire again.
    world.put({ ...(world.tasks.get('A.md') as TaskInfo), title: 'A renamed title' });
    await world.clock.advance(3_600_000);
    assert.equal(world.events.length, 2);
    await world.close();
  });

  it('re-plans when the task is edited and forgets deleted reminders and tasks', async () => {
    const world = new World(new ManualClock(START));
    world.tasks.set(
      'A.md',
      makeTask('A.md', {
        due: '2026-01-15T12:00:00Z',
        reminders: [{ id: 'r', type: 'relative', relatedTo: 'due', offset: '-PT2H' }],
      }),
    );
    world.tasks.set('B.md', makeTask('B.md', { reminders: [absolute('b', START + 5_000)] }));
    world.tasks.set('C.md', makeTask('C.md', { reminders: [absolute('c', START + 5_000)] }));
    const s = await world.scheduler(dir);
    // Move the due date one hour earlier: the reminder now fires at 09:30Z instead of 10:00Z.
    world.put({ ...(world.tasks.get('A.md') as TaskInfo), due: '2026-01-15T11:30:00Z' });
    world.put({ ...(world.tasks.get('B.md') as TaskInfo), reminders: [] });
    world.remove('C.md');
    await world.clock.advance(2 * 3_600_000);
    assert.deepEqual(
      world.fired().map((f) => [f.id, iso(f.at)]),
      [['r', '2026-01-15T09:30:00.000Z']],
    );
    assert.equal(s.pending(), 0);
    // The fired reminder's record goes with its task.
    world.remove('A.md');
    await world.close();
    assert.deepEqual(await storedRecords(dir), []);
  });

  it('survives a restart before firing and does not re-fire after one', async () => {
    const clock = new ManualClock(START);
    const first = new World(clock);
    first.tasks.set(
      'A.md',
      makeTask('A.md', { reminders: [absolute('early', START + 1_000), absolute('late', START + 60_000)] }),
    );
    await first.scheduler(dir);
    await clock.advance(2_000);
    assert.equal(first.events.length, 1);
    await first.close();
    assert.deepEqual(await storedRecords(dir), [['A.md', 'early', iso(START + 1_000), 'fired']]);

    await clock.advance(10_000);
    const second = new World(clock);
    second.tasks.set('A.md', first.tasks.get('A.md') as TaskInfo);
    await second.scheduler(dir);
    assert.equal(second.events.length, 0, 'the fired one stays fired');
    await clock.advance(48_000);
    assert.deepEqual(
      second.fired().map((f) => [f.id, f.at]),
      [['late', START + 60_000]],
    );
    await second.close();
  });

  it('on start fires reminders at most 15 minutes late and skips older ones with a log line', async () => {
    const clock = new ManualClock(START);
    const world = new World(clock);
    world.tasks.set(
      'A.md',
      makeTask('A.md', {
        reminders: [absolute('recent', START - 15 * 60_000), absolute('stale', START - 15 * 60_000 - 1)],
      }),
    );
    await world.scheduler(dir);
    assert.deepEqual(
      world.fired().map((f) => [f.id, f.at, f.notificationTime]),
      [['recent', START, iso(START - 900_000)]],
    );
    assert.ok(world.logs.some((l) => /skipped/.test(l)));
    await world.close();

    // Neither is reconsidered on the next start.
    const again = new World(clock);
    again.tasks.set('A.md', world.tasks.get('A.md') as TaskInfo);
    await again.scheduler(dir);
    assert.equal(again.events.length, 0);
    assert.equal(again.logs.filter((l) => /skipped/.test(l)).length, 0);
    await again.close();
  });

  it('keeps records with a renamed task and ignores reminders without a usable time', async () => {
    const clock = new ManualClock(START);
    const world = new World(clock);
    const a = makeTask('A.md', {
      reminders: [
        absolute('x', START - 1000),
        { id: 'bad', type: 'relative', relatedTo: 'due', offset: '-PT5M' },
      ],
    });
    world.tasks.set('A.md', a);
    await world.scheduler(dir);
    assert.equal(world.events.length, 1);
    const moved = { ...a, id: 'Done/A.md', path: 'Done/A.md' };
    world.tasks.delete('A.md');
    world.tasks.set(moved.path, moved);
    world.bus.emit('task.updated', { task: moved, previous: a });
    assert.equal(world.events.length, 1, 'a rename is not a new reminder');
    await world.close();
    assert.deepEqual(await storedRecords(dir), [['Done/A.md', 'x', iso(START - 1000), 'fired']]);
  });

  it('commits a fired record in the transaction of its event: both or neither', async () => {
    const clock = new ManualClock(START);
    const world = new World(clock);
    world.tasks.set(
      'A.md',
      makeTask('A.md', { reminders: [absolute('kept', START + 1_000), absolute('lost', START + 2_000)] }),
    );
    await world.scheduler(dir, { journal: true });
    // The commit that holds the `lost` reminder's event fails (as on a full disk).
    world.bus.on('reminder.triggered', ({ data }) => {
      if (data.reminder.id === 'lost') {
        world.openStore.beforeCommit(() => {
          throw new Error('disk full');
        });
      }
    });
    await clock.advance(3_000);
    assert.deepEqual(
      world.fired().map((f) => f.id),
      ['kept', 'lost'],
    );
    await world.close();
    assert.deepEqual(await storedRecords(dir), [['A.md', 'kept', iso(START + 1_000), 'fired']]);
    const store = openStore(dir);
    const journaled = store.db
      .prepare<[], { envelope: string }>("SELECT envelope FROM events WHERE name = 'reminder.triggered'")
      .all()
      .map((row) => (JSON.parse(row.envelope) as { data: { reminder: { id: string } } }).data.reminder.id);
    await store.close();
    assert.deepEqual(journaled, ['kept']);
  });

  it("moves an earlier release's reminders.json into the store, then removes the file", async () => {
    const clock = new ManualClock(START);
    const world = new World(clock);
    world.tasks.set(
      'A.md',
      makeTask('A.md', { reminders: [absolute('done', START - 60_000), absolute('next', START - 30_000)] }),
    );
    const legacy = path.join(dir, 'reminders.json');
    const record = {
      task: 'A.md',
      reminder: 'done',
      fireTime: iso(START - 60_000),
      outcome: 'fired',
      at: iso(START),
    };
    // A record whose time does not parse never matched a reminder; it is left behind.
    const unparsable = { ...record, reminder: 'next', fireTime: 'soon' };
    await writeFile(legacy, JSON.stringify({ version: 1, handled: [record, unparsable] }));
    await world.scheduler(dir);
    assert.deepEqual(
      world.fired().map((f) => f.id),
      ['next'],
      'the imported record keeps its reminder from firing again',
    );
    await world.close();
    await assert.rejects(readFile(legacy), { code: 'ENOENT' });
    assert.deepEqual(await storedRecords(dir), [
      ['A.md', 'done', iso(START - 60_000), 'fired'],
      ['A.md', 'next', iso(START - 30_000), 'fired'],
    ]);
  });

  it('refuses to start on an unreadable reminders.json and leaves it alone', async () => {
    const world = new World(new ManualClock(START));
    const legacy = path.join(dir, 'reminders.json');
    await writeFile(legacy, '{"version": 1, "handled": [{"task": 3}]}');
    await assert.rejects(world.scheduler(dir), (err: unknown) => {
      assert.ok(err instanceof StateFileError);
      assert.match(err.message, /reminders\.json.*\/handled\/0/);
      return true;
    });
    await world.close();
    assert.equal(await readFile(legacy, 'utf8'), '{"version": 1, "handled": [{"task": 3}]}');
  });
});
