/**
 * Binds the pure query engine to the live task index: the task list, the effective TaskNotes
 * settings and the vault's link resolver.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import type { TaskNotesSettings } from '../tasks/tasknotes-settings.js';
import type { QueryEnv, QuerySettings } from './types.js';

/** What the engine reads from the task service (structural, so tests can pass a stub). */
export interface TaskSource {
  list(): readonly TaskInfo[];
  settings(): TaskNotesSettings;
  resolveLink(link: string, fromPath?: string): TaskInfo | undefined;
}

export function querySettingsOf(settings: TaskNotesSettings): QuerySettings {
  return {
    statuses: settings.customStatuses,
    priorities: settings.customPriorities,
    userFields: settings.userFields,
    hideCompletedFromOverdue: settings.hideCompletedFromOverdue,
  };
}

export function queryEnvOf(source: TaskSource, now: number): QueryEnv {
  return {
    tasks: source.list(),
    settings: querySettingsOf(source.settings()),
    now,
    resolveLink: (link, fromPath) => source.resolveLink(link, fromPath)?.path,
  };
}
