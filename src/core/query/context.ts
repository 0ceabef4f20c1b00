/**
 * Per-run facts derived from the environment: "today", status and priority lookups, link
 * resolution and the set of notes that are some task's project. Expensive parts are computed on
 * first use, so a query that never asks for `hasSubtasks` never walks every project link.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import { localDay } from '../recurrence/day.js';
import { isPastDue } from './dates.js';
import { LinkIndex } from '../links/link-index.js';
import { basename, parseLink } from './links.js';
import type { QueryEnv, UserFieldDef } from './types.js';

export class QueryContext {
  readonly today: string;
  private readonly statusOrders = new Map<string, number>();
  private readonly priorityWeights = new Map<string, number>();
  private readonly completed = new Set<string>();
  private readonly firstCompleted: string | undefined;
  private fallbackResolver?: LinkIndex;
  private parents?: Set<string>;
  private tasksByPath?: Map<string, TaskInfo>;

  constructor(readonly env: QueryEnv) {
    this.today = localDay(env.now);
    env.settings.statuses.forEach((s, i) => {
      this.statusOrders.set(s.value, s.order ?? i);
      if (s.isCompleted) this.completed.add(s.value);
    });
    env.settings.priorities.forEach((p, i) => this.priorityWeights.set(p.value, p.weight ?? i));
    this.firstCompleted = env.settings.statuses.find((s) => s.isCompleted)?.value;
  }

  isCompletedStatus(status: string): boolean {
    return this.completed.has(status);
  }

  /**
   * Completion as the filter's `status.isCompleted` sees it: a recurring task whose instance for
   * today is in `complete_instances` counts as completed (with today's LOCAL date), otherwise
   * its stored status decides.
   */
  isEffectivelyCompleted(task: TaskInfo): boolean {
    if (
      task.recurrence &&
      this.firstCompleted !== undefined &&
      task.complete_instances?.includes(this.today)
    ) {
      return true;
    }
    return this.completed.has(task.status);
  }

  /**
   * Overdue as the `due` grouping and the `overdue` filter see it: the due date (or time) has
   * passed by the local clock, and with hideCompletedFromOverdue (on by default) the task's status
   * is not a completed one.
   */
  isOverdue(task: TaskInfo): boolean {
    if (this.env.settings.hideCompletedFromOverdue !== false && this.completed.has(task.status)) return false;
    return isPastDue(task.due, this.today, this.env.now);
  }

  /** Status `order`; an unknown status counts as 0 (reference sort rule). */
  statusOrder(status: string): number {
    return this.statusOrders.get(status) ?? 0;
  }

  hasStatus(status: string): boolean {
    return this.statusOrders.has(status);
  }

  /** Priority weight, or undefined for a value that is not configured. */
  priorityWeight(priority: string): number | undefined {
    return this.priorityWeights.get(priority);
  }

  userField(id: string): UserFieldDef | undefined {
    return this.env.settings.userFields.find((f) => (f.id || f.key) === id);
  }

  resolve(link: string, fromPath: string): string | undefined {
    if (this.env.resolveLink) return this.env.resolveLink(link, fromPath);
    this.fallbackResolver ??= new LinkIndex(this.env.tasks.map((t) => t.path));
    return this.fallbackResolver.resolve(link, fromPath);
  }

  task(path: string): TaskInfo | undefined {
    this.tasksByPath ??= new Map(this.env.tasks.map((t) => [t.path, t]));
    return this.tasksByPath.get(path);
  }

  /** Paths of notes that at least one task lists as a project through a real link. */
  projectParents(): Set<string> {
    if (!this.parents) {
      this.parents = new Set();
      for (const task of this.env.tasks) {
        for (const project of task.projects) {
          if (!parseLink(project).isLink) continue;
          const target = this.resolve(project, task.path);
          if (target !== undefined) this.parents.add(target);
        }
      }
    }
    return this.parents;
  }

  /**
   * What a project value is called: the link alias, else the resolved note's title, else the
   * link target's basename, else the plain text.
   */
  projectDisplayName(raw: string, fromPath: string): string {
    const link = parseLink(raw);
    if (link.alias) return link.alias;
    if (!link.isLink) return link.target;
    const target = this.resolve(raw, fromPath);
    const note = target === undefined ? undefined : this.task(target);
    return note?.title ?? basename(link.target);
  }
}
