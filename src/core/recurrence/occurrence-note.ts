/**
 * Materialized occurrences: a separate task note standing for one instance of a recurring
 * parent (as in the TaskNotes plugin). This module plans the new note's fields and recognises an
 * existing occurrence note of a (parent, day) pair; the service does the I/O.
 */
import { linkTarget } from '../links/parse.js';
import type { Dependency, TaskInfo } from '../tasks/task-info.js';
import { addDays, daysBetween, dayOf, withTimeOf } from './day.js';

/** A note is an occurrence when it names a parent and an occurrence day. */
export function isOccurrenceNote(
  task: TaskInfo,
): task is TaskInfo & { recurrence_parent: string; occurrence_date: string } {
  return typeof task.recurrence_parent === 'string' && dayOf(task.occurrence_date) !== undefined;
}

/** A link's target in comparable form: link syntax removed, `.md` stripped, lower-cased. */
export function linkKey(link: string): string {
  return linkTarget(link).replace(/\.md$/i, '').toLowerCase();
}

/**
 * True when `link` names `parentPath`: by full path (without `.md`) or by basename, the two forms
 * a wikilink to the parent takes.
 */
export function linksTo(link: string, parentPath: string): boolean {
  const key = linkKey(link);
  const full = parentPath.replace(/\.md$/i, '').toLowerCase();
  return key === full || key === full.split('/').pop();
}

/** The creation input of an occurrence note (the TaskService create body shape). */
export interface OccurrencePlan {
  title: string;
  status: string;
  priority: string;
  scheduled: string;
  due?: string;
  contexts?: string[];
  projects?: string[];
  tags: string[];
  timeEstimate?: number;
  reminders?: Array<Record<string, unknown>>;
  blockedBy?: Dependency[];
  customProperties?: Record<string, unknown>;
  recurrence_parent: string;
  occurrence_date: string;
}

const ARCHIVE_TAG = 'archived';

/**
 * What an occurrence inherits: title, priority, contexts, projects, tags, estimate, reminders,
 * dependencies and user fields. Its scheduled date is the occurrence day (keeping the parent's
 * time); its due keeps the parent's scheduled→due day offset. Recurrence fields, instance lists,
 * completion and time tracking are not copied: the occurrence is a single, fresh task.
 */
export function planOccurrence(
  parent: TaskInfo,
  day: string,
  options: { defaultStatus: string; parentLink: string },
): OccurrencePlan {
  const plan: OccurrencePlan = {
    title: parent.title,
    status: options.defaultStatus,
    priority: parent.priority,
    scheduled: parent.scheduled ? withTimeOf(day, parent.scheduled) : day,
    tags: parent.tags.filter((t) => t !== ARCHIVE_TAG),
    recurrence_parent: `[[${options.parentLink}]]`,
    occurrence_date: day,
  };
  const dueDay = dayOf(parent.due);
  if (dueDay) {
    const base = dayOf(parent.scheduled) ?? dueDay;
    plan.due = withTimeOf(addDays(day, daysBetween(base, dueDay)), parent.due);
  }
  if (parent.contexts.length > 0) plan.contexts = [...parent.contexts];
  if (parent.projects.length > 0) plan.projects = [...parent.projects];
  if (parent.timeEstimate !== undefined) plan.timeEstimate = parent.timeEstimate;
  if (parent.reminders?.length) plan.reminders = parent.reminders.map((r) => ({ ...r }));
  if (parent.blockedBy?.length) {
    // Read form has bare uids; the write form is a wikilink.
    plan.blockedBy = parent.blockedBy.map((d) => ({
      ...d,
      uid: d.uid.startsWith('[[') ? d.uid : `[[${d.uid}]]`,
    }));
  }
  if (parent.customProperties) plan.customProperties = { ...parent.customProperties };
  return plan;
}
