/**
 * Time tracking on tasks (as in the TaskNotes plugin): starting and stopping entries in a
 * task's `timeEntries` through the task service's locked read-modify-write, and the read models.
 *
 * Events: `time.started` / `time.stopped` carry the task after the change and the entry that was
 * started or stopped. The edits themselves are silent (no `task.updated`), as in the reference's
 * §9 table; starting with a non-empty description additionally emits `task.updated`, because the
 * reference saves that description through its general task update.
 */
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import type { TaskService } from '../tasks/task-service.js';
import type { TaskInfo, TimeEntry } from '../tasks/task-info.js';
import { startEntry, stopEntry } from './entries.js';
import { activeSessions, taskTimeReport, timeSummary, type SummaryQuery } from './summary.js';

export type TimeTasks = Pick<TaskService, 'get' | 'list' | 'edit' | 'isCompletedStatus'>;

export interface TrackingResult {
  task: TaskInfo;
  session: TimeEntry;
}

export class TimeService {
  constructor(
    private readonly tasks: TimeTasks,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  async start(id: string, description?: string): Promise<TrackingResult> {
    let session: TimeEntry | undefined;
    const { before, after } = await this.tasks.edit(
      id,
      (draft) => {
        const next = startEntry(
          draft.timeEntries as TimeEntry[] | undefined,
          this.clock.now(),
          description || undefined,
        );
        draft.timeEntries = next.entries;
        session = next.started;
      },
      { silent: true },
    );
    const started = session as TimeEntry;
    this.events.emit('time.started', { task: after, session: started });
    if (description) this.events.emit('task.updated', { task: after, previous: before });
    return { task: after, session: started };
  }

  /** Stops the running entry; `at` lets the pomodoro end it when the session really ended. */
  async stop(id: string, at: number = this.clock.now()): Promise<TrackingResult> {
    let session: TimeEntry | undefined;
    const { after } = await this.tasks.edit(
      id,
      (draft) => {
        const next = stopEntry(draft.timeEntries as TimeEntry[] | undefined, at);
        draft.timeEntries = next.entries;
        session = next.stopped;
      },
      { silent: true },
    );
    const stopped = session as TimeEntry;
    this.events.emit('time.stopped', { task: after, session: stopped });
    return { task: after, session: stopped };
  }

  async report(id: string): Promise<ReturnType<typeof taskTimeReport>> {
    return taskTimeReport(await this.tasks.get(id), this.clock.now());
  }

  active(): ReturnType<typeof activeSessions> {
    return activeSessions(this.tasks.list(), this.clock.now());
  }

  summary(query: SummaryQuery): ReturnType<typeof timeSummary> {
    return timeSummary(this.tasks.list(), query, this.clock.now(), (s) => this.tasks.isCompletedStatus(s));
  }
}
