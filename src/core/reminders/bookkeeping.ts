/**
 * Which reminders have been handled, persisted in `<data dir>/reminders.json` so a restart
 * neither fires a reminder twice nor fires one that was skipped. A record names the task, the
 * reminder id and the fire time: when a reminder moves (new due date, edited offset) it is a
 * new occurrence and fires again at its new time.
 */
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { JsonStateFile } from '../state/json-file.js';

const RecordSchema = Type.Object({
  task: Type.String(),
  reminder: Type.String(),
  /** UTC ISO time the reminder was due. */
  fireTime: Type.String(),
  outcome: Type.Union([Type.Literal('fired'), Type.Literal('skipped')]),
  /** UTC ISO time the outcome was decided. */
  at: Type.String(),
});
export type HandledReminder = Static<typeof RecordSchema>;

const FileSchema = Type.Object({
  version: Type.Literal(1, { default: 1 }),
  handled: Type.Array(RecordSchema, { default: [] }),
});

export const reminderKey = (task: string, reminder: string, fireTime: number): string =>
  JSON.stringify([task, reminder, fireTime]);

export class ReminderBookkeeping {
  /** Keys per task path: planning looks a task's records up once per task and startup plans every task. */
  private readonly byTask = new Map<string, Set<string>>();

  private constructor(
    private readonly file: JsonStateFile<typeof FileSchema>,
    private readonly records: Map<string, HandledReminder>,
  ) {
    for (const [key, r] of records) this.index(key, r.task);
  }

  static async open(dataDir: string): Promise<ReminderBookkeeping> {
    const file = new JsonStateFile(path.join(dataDir, 'reminders.json'), FileSchema);
    const data = await file.load(() => ({ version: 1 as const, handled: [] }));
    const records = new Map<string, HandledReminder>();
    for (const r of data.handled) records.set(reminderKey(r.task, r.reminder, Date.parse(r.fireTime)), r);
    return new ReminderBookkeeping(file, records);
  }

  has(key: string): boolean {
    return this.records.has(key);
  }

  record(entry: HandledReminder): Promise<void> {
    this.set(reminderKey(entry.task, entry.reminder, Date.parse(entry.fireTime)), entry);
    return this.save();
  }

  /** Keys recorded for one task. */
  keysOf(task: string): string[] {
    return [...(this.byTask.get(task) ?? [])];
  }

  /** Drops records (their reminder no longer exists); returns whether anything changed. */
  forget(keys: Iterable<string>): boolean {
    let changed = false;
    for (const key of keys) changed = this.delete(key) || changed;
    return changed;
  }

  /** Moves a renamed task's records to its new path. */
  rename(from: string, to: string): boolean {
    const keys = this.keysOf(from);
    for (const key of keys) {
      const r = this.records.get(key)!;
      this.delete(key);
      this.set(reminderKey(to, r.reminder, Date.parse(r.fireTime)), { ...r, task: to });
    }
    return keys.length > 0;
  }

  /** Task paths that have records. */
  tasks(): Set<string> {
    return new Set(this.byTask.keys());
  }

  private set(key: string, entry: HandledReminder): void {
    this.records.set(key, entry);
    this.index(key, entry.task);
  }

  private index(key: string, task: string): void {
    let keys = this.byTask.get(task);
    if (!keys) this.byTask.set(task, (keys = new Set()));
    keys.add(key);
  }

  private delete(key: string): boolean {
    const r = this.records.get(key);
    if (!r) return false;
    this.records.delete(key);
    const keys = this.byTask.get(r.task);
    keys?.delete(key);
    if (keys?.size === 0) this.byTask.delete(r.task);
    return true;
  }

  save(): Promise<void> {
    return this.file.save({ version: 1, handled: [...this.records.values()] });
  }

  flush(): Promise<void> {
    return this.file.flush();
  }
}
