/**
 * Which reminders have been handled, kept in the store's `reminders_handled` table so a restart
 * neither fires a reminder twice nor fires one that was skipped. A record names the task, the
 * reminder id and the fire time: when a reminder moves (new due date, edited offset) it is a
 * new occurrence and fires again at its new time.
 *
 * Every change joins the store's group commit. A `fired` record is made in the same turn as its
 * `reminder.triggered` event, so the two are committed in one transaction: after a crash either
 * both are on disk or neither is (and the reminder fires on the restart, if it is still due).
 *
 * Why a table: the records used to live in `reminders.json`, rewritten whole on every change. At
 * 100,000 notes the file held 2,500 records (0.5 MB), and a burst of new notes with past
 * reminders rewrote it back to back: the scale bench's burst of 5,000 notes took 2,710 ms of
 * server CPU with the file and 1,990 ms with the table (docs/performance.md).
 * A row costs one insert in a transaction that is committed anyway. A `reminders.json` left by
 * an earlier release is imported at the first start and removed.
 *
 * The records are also held in memory: planning at start looks up every task with reminders.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { Logger } from '../logger.js';
import type { Store } from '../store/database.js';
import { JsonStateFile, StateFileError } from '../state/json-file.js';

export type ReminderOutcome = 'fired' | 'skipped';

export interface HandledReminder {
  task: string;
  reminder: string;
  /** Epoch ms at which the reminder was due. */
  fireTime: number;
  outcome: ReminderOutcome;
  /** Epoch ms at which the outcome was decided. */
  at: number;
}

interface Row {
  task: string;
  reminder: string;
  fire_time: number;
  outcome: ReminderOutcome;
  at: number;
}

/** The file an earlier release kept the records in (times as UTC ISO strings). */
const LEGACY_FILE = 'reminders.json';
const LegacySchema = Type.Object({
  version: Type.Literal(1, { default: 1 }),
  handled: Type.Array(
    Type.Object({
      task: Type.String(),
      reminder: Type.String(),
      fireTime: Type.String(),
      outcome: Type.Union([Type.Literal('fired'), Type.Literal('skipped')]),
      at: Type.String(),
    }),
    { default: [] },
  ),
});

const UPSERT =
  'INSERT OR REPLACE INTO reminders_handled (task, reminder, fire_time, outcome, at) VALUES (?, ?, ?, ?, ?)';
type UpsertParams = [task: string, reminder: string, fireTime: number, outcome: ReminderOutcome, at: number];

export const reminderKey = (task: string, reminder: string, fireTime: number): string =>
  JSON.stringify([task, reminder, fireTime]);

export class ReminderBookkeeping {
  /** Keys per task path: planning looks a task's records up once per task and startup plans every task. */
  private readonly byTask = new Map<string, Set<string>>();
  private readonly upsert;
  private readonly remove;

  private constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly records: Map<string, HandledReminder>,
  ) {
    for (const [key, r] of records) this.index(key, r.task);
    this.upsert = store.db.prepare<UpsertParams>(UPSERT);
    this.remove = store.db.prepare<[string, string, number]>(
      'DELETE FROM reminders_handled WHERE task = ? AND reminder = ? AND fire_time = ?',
    );
  }

  /**
   * Reads the records, after importing a `reminders.json` of an earlier release. Throws
   * StateFileError when that file cannot be read or does not match its schema (it is left alone).
   */
  static async open(store: Store, dataDir: string, log: Logger): Promise<ReminderBookkeeping> {
    await importLegacyFile(store, path.join(dataDir, LEGACY_FILE), log);
    const records = new Map<string, HandledReminder>();
    const rows = store.db
      .prepare<[], Row>('SELECT task, reminder, fire_time, outcome, at FROM reminders_handled')
      .all();
    for (const row of rows) {
      const r = {
        task: row.task,
        reminder: row.reminder,
        fireTime: row.fire_time,
        outcome: row.outcome,
        at: row.at,
      };
      records.set(reminderKey(r.task, r.reminder, r.fireTime), r);
    }
    return new ReminderBookkeeping(store, log, records);
  }

  has(key: string): boolean {
    return this.records.has(key);
  }

  record(entry: HandledReminder): void {
    this.set(reminderKey(entry.task, entry.reminder, entry.fireTime), entry);
  }

  /** Keys recorded for one task. */
  keysOf(task: string): string[] {
    return [...(this.byTask.get(task) ?? [])];
  }

  /** Drops records (their reminder no longer exists). */
  forget(keys: Iterable<string>): void {
    for (const key of keys) this.delete(key);
  }

  /** Moves a renamed task's records to its new path. */
  rename(from: string, to: string): void {
    for (const key of this.keysOf(from)) {
      const r = this.records.get(key)!;
      this.delete(key);
      this.set(reminderKey(to, r.reminder, r.fireTime), { ...r, task: to });
    }
  }

  /** Task paths that have records. */
  tasks(): Set<string> {
    return new Set(this.byTask.keys());
  }

  private set(key: string, entry: HandledReminder): void {
    this.records.set(key, entry);
    this.index(key, entry.task);
    this.write(() => this.upsert.run(entry.task, entry.reminder, entry.fireTime, entry.outcome, entry.at));
  }

  private index(key: string, task: string): void {
    let keys = this.byTask.get(task);
    if (!keys) this.byTask.set(task, (keys = new Set()));
    keys.add(key);
  }

  private delete(key: string): void {
    const r = this.records.get(key);
    if (!r) return;
    this.records.delete(key);
    const keys = this.byTask.get(r.task);
    keys?.delete(key);
    if (keys?.size === 0) this.byTask.delete(r.task);
    this.write(() => this.remove.run(r.task, r.reminder, r.fireTime));
  }

  /**
   * Joins the store's group commit. A failed statement is logged and the memory keeps the change:
   * at worst a restart plans that reminder again (a commit failure is logged by the store).
   */
  private write(statement: () => void): void {
    try {
      this.store.write(statement);
    } catch (err) {
      this.log.error({ err }, 'could not save reminder bookkeeping');
    }
  }
}

/** Moves the records of an earlier release's `reminders.json` into the table, then removes the file. */
async function importLegacyFile(store: Store, file: string, log: Logger): Promise<void> {
  const legacy = new JsonStateFile(file, LegacySchema);
  let absent = false;
  const data = await legacy.load(() => {
    absent = true;
    return { version: 1 as const, handled: [] };
  });
  // Every start but the first after an upgrade: nothing to import and nothing to remove.
  if (absent) return;
  if (data.handled.length === 0) {
    await fs.rm(file, { force: true });
    return;
  }
  const failed = (err: Error): StateFileError =>
    new StateFileError(file, `its records could not be moved into the store (${err.message})`);
  const insert = store.db.prepare<UpsertParams>(UPSERT);
  try {
    store.write(() =>
      store.db.transaction(() => {
        for (const r of data.handled) {
          const fireTime = Date.parse(r.fireTime);
          // A time that does not parse never matched a reminder: the record served nothing.
          if (Number.isNaN(fireTime)) continue;
          insert.run(r.task, r.reminder, fireTime, r.outcome, Date.parse(r.at) || fireTime);
        }
      })(),
    );
  } catch (err) {
    throw failed(err as Error);
  }
  // The import is committed before the file goes (a crash in between imports it again, harmlessly).
  const error = await new Promise<Error | undefined>((resolve) => store.afterCommit(resolve));
  if (error) throw failed(error);
  await fs.rm(file, { force: true });
  log.info({ file, records: data.handled.length }, 'reminder records moved into the store');
}
