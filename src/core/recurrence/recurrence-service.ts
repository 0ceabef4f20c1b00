/**
 * The recurring-task commands: complete an instance (as in the TaskNotes plugin), materialize an occurrence
 * note, skip and unskip an instance (docs/api-decisions.md), and the parent reconciliation that follows
 * when an occurrence note is completed or reopened by any path (API, PUT, another program).
 *
 * Parent writes made here are silent edits (no task.updated): their meaning is carried by the
 * recurring.* events this service emits, as in the reference, and a silent write cannot feed
 * back into the listeners below.
 */
import type { Clock } from '../clock.js';
import { invalid, notFound } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../logger.js';
import { KeyedLock } from '../vault/keyed-lock.js';
import { filenameSafeTitle } from '../tasks/filename.js';
import type { Precondition } from '../tasks/etag.js';
import type { TaskInfo } from '../tasks/task-info.js';
import type { TaskService } from '../tasks/task-service.js';
import { dayOf, dayToDate, localDay, maxDay } from './day.js';
import { requestedInstant, requiredDay } from './instance-date.js';
import { changeInstance, owningDay, type InstanceChange } from './instance-change.js';
import type { InstanceAction } from './instances.js';
import { resolveOperationTargetDate } from '../dates/operation-target.js';
import { wikilinkTarget } from '../links/canonical.js';
import { isOccurrenceNote, linksTo, planOccurrence } from './occurrence-note.js';
import { renderOccurrenceName } from './occurrence-filename.js';
import { isRecurring, recurringState, type RecurringTask } from './recurring-task.js';
import { RecurrenceSyntaxError } from './rule.js';
import { Series } from './series.js';

export const NOT_RECURRING = 'Task is not recurring';
const notAnInstance = (day: string): string => `${day} is not a day the task's recurrence rule produces`;
export const TASK_NOT_FOUND = 'Task not found';

export interface RecurrenceServiceDeps {
  tasks: TaskService;
  events: EventBus;
  clock: Clock;
  log: Logger;
}

/** A bad rule is the client's problem (400), not a server error. */
function asDomainError(err: unknown): unknown {
  return err instanceof RecurrenceSyntaxError ? invalid(`Invalid recurrence: ${err.message}`) : err;
}

export class RecurrenceService {
  /** Reconciliations started by bus listeners; commands await them before answering. */
  private readonly pending = new Set<Promise<void>>();
  /** One materialization per (parent, day) at a time, so "idempotent" holds under concurrency. */
  private readonly materializeLock = new KeyedLock();

  constructor(private readonly deps: RecurrenceServiceDeps) {}

  // ---- commands -------------------------------------------------------------------------------

  /**
   * Toggles one instance; returns the updated parent, or the occurrence note when one is used.
   * `precondition` (If-Match) is about the parent, the note addressed.
   */
  async completeInstance(id: string, date?: string, precondition?: Precondition): Promise<TaskInfo> {
    const parent = this.recurringTask(id);
    const requested = date === undefined ? this.defaultInstant(parent) : requestedInstant(date);

    const existing = this.findOccurrence(parent, requested.day);
    if (existing) return this.toggleOccurrence(parent, precondition, async () => existing);
    if (
      parent.occurrence_materialization === 'on_completion' &&
      !(parent.complete_instances ?? []).includes(requested.day)
    ) {
      return this.toggleOccurrence(
        parent,
        precondition,
        async () => (await this.materializeOccurrence(parent.path, requested.day)).task,
      );
    }

    let completed = false;
    let instance = requested.day;
    const { after } = await this.editInstances(
      parent.path,
      (state) => {
        instance = owningDay(state, requested.day);
        completed = !state.complete.includes(instance);
        return { day: instance, action: completed ? 'complete' : 'uncomplete' };
      },
      precondition,
    );
    if (completed) {
      this.deps.events.emit('recurring.instance.completed', {
        task: after,
        date: instance,
        targetDate: requested.targetDate,
      });
    }
    return after;
  }

  /** Creates the occurrence note of `date`, or returns the existing one unchanged. */
  async materializeOccurrence(
    id: string,
    date: string | undefined,
  ): Promise<{ task: TaskInfo; created: boolean }> {
    const day = requiredDay(date);
    const parent = this.recurringTask(id);
    return this.materializeLock.run(`${parent.path}\n${day}`, async () => {
      const existing = this.findOccurrence(parent, day);
      if (existing) return { task: existing, created: false };
      if (!this.series(parent).occursOn(day)) {
        this.deps.log.warn(
          { task: parent.path, date: day },
          'materializing a day the rule does not generate',
        );
      }
      const settings = this.deps.tasks.settings();
      const plan = planOccurrence(parent, day, {
        defaultStatus: settings.defaultTaskStatus,
        parentLink: wikilinkTarget(
          parent.path,
          this.deps.tasks.list().map((t) => t.path),
        ),
      });
      const template = this.occurrenceTemplate(parent, settings.occurrenceFilenameTemplate);
      const rendered = template ? renderOccurrenceName(template, parent, day).trim() : '';
      // An empty rendering falls back to the configured filename (the parent's title by default).
      // An occurrence is not a new task of its own: the body template of new tasks is not applied.
      const options = {
        bodyTemplate: false,
        ...(rendered === '' ? {} : { baseName: filenameSafeTitle(rendered) }),
      };
      const task = await this.deps.tasks.create({ ...plan }, options);
      return { task, created: true };
    });
  }

  /** Skips one instance; returns the updated parent. */
  async skipInstance(id: string, date: string | undefined, precondition?: Precondition): Promise<TaskInfo> {
    const day = requiredDay(date);
    const parent = this.recurringTask(id);
    const occurrence = this.findOccurrence(parent, day);
    const { before, after } = await this.editInstances(
      parent.path,
      (state) => {
        // A skip of a day the rule never produces would change nothing a user sees, yet report
        // an instance skipped. Completion-anchored rules have no fixed days to check against.
        const known = state.skipped.includes(day) || state.anchor === 'completion';
        if (!known && !Series.of(state).occursOn(day)) throw invalid(notAnInstance(day));
        return { day, action: 'skip' };
      },
      precondition,
    );
    if (after === before) return after; // already skipped
    if (occurrence) {
      // Rule 3: the occurrence note is reconciled and no skip event is emitted.
      await this.setOccurrenceSkipped(occurrence, true);
      await this.materializeNextIfDue(after, 'skip');
    } else {
      this.deps.events.emit('recurring.instance.skipped', { task: after, date: day });
    }
    return after;
  }

  /** Undoes a skip; returns the updated parent. No event exists for this. */
  async unskipInstance(id: string, date: string | undefined, precondition?: Precondition): Promise<TaskInfo> {
    const day = requiredDay(date);
    const parent = this.recurringTask(id);
    const { after } = await this.editInstances(parent.path, () => ({ day, action: 'unskip' }), precondition);
    const occurrence = this.findOccurrence(parent, day);
    if (occurrence) await this.setOccurrenceSkipped(occurrence, false);
    return after;
  }

  // ---- reconciliation of occurrence notes (called from bus listeners) -------------------------

  /** An occurrence note moved into a completed status: complete its instance on the parent. */
  async occurrenceCompleted(occurrence: TaskInfo): Promise<void> {
    const parent = this.parentOf(occurrence);
    const day = dayOf(occurrence.occurrence_date);
    if (!parent || !day) return;
    const { after } = await this.editInstances(parent.path, () => ({ day, action: 'complete' }));
    this.deps.events.emit('recurring.instance.completed', {
      task: after,
      occurrence: this.deps.tasks.find(occurrence.path) ?? occurrence,
      date: day,
    });
    await this.materializeNextIfDue(after, 'completion');
  }

  /** An occurrence note left its completed status: its instance is open again on the parent. */
  async occurrenceReopened(occurrence: TaskInfo): Promise<void> {
    const parent = this.parentOf(occurrence);
    const day = dayOf(occurrence.occurrence_date);
    // Nothing to undo when the parent does not hold the day as complete (e.g. it was skipped).
    if (!parent || !day || !(parent.complete_instances ?? []).includes(day)) return;
    await this.editInstances(parent.path, () => ({ day, action: 'uncomplete' }));
  }

  /** True when a materialized occurrence note exists for (parent, day). */
  hasOccurrence(parent: TaskInfo, day: string): boolean {
    return this.findOccurrence(parent, day) !== undefined;
  }

  /** Runs listener work in the background and remembers it until it settles. */
  track(work: Promise<void>): void {
    const tracked = work.catch((err: unknown) =>
      this.deps.log.error({ err }, 'recurring reconciliation failed'),
    );
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  /** Resolves when no reconciliation started by a listener is still running. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  // ---- helpers --------------------------------------------------------------------------------

  private recurringTask(id: string): RecurringTask {
    const task = this.deps.tasks.find(id);
    if (!task) throw notFound(TASK_NOT_FOUND);
    if (!isRecurring(task)) throw invalid(NOT_RECURRING);
    return task;
  }

  private series(task: RecurringTask): Series {
    try {
      return Series.of(recurringState(task));
    } catch (err) {
      throw asDomainError(err);
    }
  }

  /**
   * No date given: the scheduled day, else the due day, else today (tasknotes-spec §5.2.1). A
   * rule anchored on completion is completed on the day it is done, today (as in the TaskNotes plugin): its
   * next instance counts from the completion, not from the old scheduled day.
   */
  private defaultInstant(parent: RecurringTask): { day: string; targetDate: string } {
    const today = localDay(this.deps.clock.now());
    const day =
      parent.recurrence_anchor === 'completion'
        ? today
        : resolveOperationTargetDate({ scheduled: parent.scheduled, due: parent.due, today });
    return { day, targetDate: dayToDate(day).toISOString() };
  }

  /**
   * Applies one instance change to the parent under its note lock, from the state read there
   * (so concurrent changes never lose each other), and advances its schedule.
   */
  private async editInstances(
    path: string,
    decide: (state: ReturnType<typeof recurringState>) => { day: string; action: InstanceAction },
    precondition?: Precondition,
  ): Promise<{ before: TaskInfo; after: TaskInfo }> {
    const maintainDueOffset = this.deps.tasks.settings().maintainDueDateOffsetInRecurring;
    const today = localDay(this.deps.clock.now());
    try {
      return await this.deps.tasks.edit(
        path,
        (draft) => {
          const task = draft as RecurringTask;
          if (!isRecurring(task)) throw invalid(NOT_RECURRING);
          const state = recurringState(task);
          const { day, action } = decide(state);
          // Skipping a skipped day, or undoing a skip that was never made, changes no instance:
          // nothing is written (and the caller sends no event).
          const skipped = state.skipped.includes(day);
          if ((action === 'skip' && skipped) || (action === 'unskip' && !skipped)) return;
          const change: InstanceChange = changeInstance(state, day, action, {
            floor: maxDay(day, today),
            maintainDueOffset,
          });
          draft.complete_instances = change.complete;
          draft.skipped_instances = change.skipped;
          draft.recurrence = change.recurrence;
          if (change.scheduled !== undefined) draft.scheduled = change.scheduled;
          if (change.due !== undefined) draft.due = change.due;
        },
        { silent: true, precondition },
      );
    } catch (err) {
      throw asDomainError(err);
    }
  }

  /**
   * Toggles the status of an occurrence note (found or made by `occurrence`) while holding the
   * parent's lock, once `precondition` holds for the parent; the listeners reconcile the parent
   * after the lock is released, and we answer once they have.
   */
  private async toggleOccurrence(
    parent: TaskInfo,
    precondition: Precondition | undefined,
    occurrence: () => Promise<TaskInfo>,
  ): Promise<TaskInfo> {
    const toggled = await this.deps.tasks.guard(parent.path, precondition, async () =>
      this.deps.tasks.toggleStatus((await occurrence()).path, { hooks: false }),
    );
    await this.settled();
    return this.deps.tasks.find(toggled.path) ?? toggled;
  }

  /**
   * A skipped occurrence takes the first status marked `isSkipped` when one is configured;
   * otherwise it only stops counting as completed. Unskipping reverses the skipped status.
   */
  private async setOccurrenceSkipped(occurrence: TaskInfo, skipped: boolean): Promise<void> {
    const settings = this.deps.tasks.settings();
    const skippedStatus = settings.customStatuses.find((s) => s.isSkipped)?.value;
    let status: string | undefined;
    if (skipped) {
      status =
        skippedStatus ??
        (this.deps.tasks.isCompletedStatus(occurrence.status) ? settings.defaultTaskStatus : undefined);
    } else if (skippedStatus !== undefined && occurrence.status === skippedStatus) {
      status = settings.defaultTaskStatus;
    }
    if (status === undefined || status === occurrence.status) return;
    const next = status;
    await this.deps.tasks.edit(occurrence.path, (draft) => {
      draft.status = next;
    });
  }

  /**
   * With `occurrence_materialization: on_completion`, finishing an instance creates the note of
   * the next open one; a skip does so only with `occurrence_next_trigger: completion_or_skip`.
   */
  private async materializeNextIfDue(parent: TaskInfo, trigger: 'completion' | 'skip'): Promise<void> {
    if (parent.occurrence_materialization !== 'on_completion') return;
    if (trigger === 'skip' && parent.occurrence_next_trigger !== 'completion_or_skip') return;
    const next = dayOf(parent.scheduled);
    if (next && isRecurring(parent)) await this.materializeOccurrence(parent.path, next);
  }

  private parentOf(occurrence: TaskInfo): RecurringTask | undefined {
    if (!isOccurrenceNote(occurrence)) return undefined;
    const parent =
      this.deps.tasks.resolveLink(occurrence.recurrence_parent, occurrence.path) ??
      this.deps.tasks.list().find((t) => linksTo(occurrence.recurrence_parent, t.path));
    return parent && isRecurring(parent) ? parent : undefined;
  }

  /**
   * The occurrence note of (parent, day): its `recurrence_parent` resolves to the parent, or, when
   * the link resolves to nothing, names the parent's path or basename (as in the TaskNotes plugin).
   */
  private findOccurrence(parent: TaskInfo, day: string): TaskInfo | undefined {
    return this.deps.tasks.list().find((t) => {
      if (t.path === parent.path || !isOccurrenceNote(t) || t.occurrence_date !== day) return false;
      const resolved = this.deps.tasks.resolveLink(t.recurrence_parent, t.path);
      return resolved ? resolved.path === parent.path : linksTo(t.recurrence_parent, parent.path);
    });
  }

  /** The parent's own `occurrenceFilenameTemplate` property wins over the setting (as in the TaskNotes plugin). */
  private occurrenceTemplate(parent: TaskInfo, fromSettings: string): string {
    const own = this.deps.tasks.settings().occurrenceFilenameTemplateProperty;
    const value = own ? this.deps.tasks.frontmatter(parent.path)?.[own] : undefined;
    return typeof value === 'string' && value.trim() !== '' ? value : fromSettings;
  }
}
