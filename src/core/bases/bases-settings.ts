/**
 * What the default `.base` templates are generated from: task identification, field mapping,
 * statuses, priorities, visible properties and the command → file mapping (reference
 * other-routes.md §7). Built from the effective TaskNotes settings plus the plugin keys the task
 * service does not model.
 */
import type { FieldMapping } from '../tasks/field-mapping.js';
import { excludedFolderList, type TaskNotesSettings } from '../tasks/tasknotes-settings.js';
import type { PluginExtras } from '../nlp/plugin-extras.js';

export interface BasesSettings {
  identification: { method: 'tag' | 'property'; tag: string; propertyName: string; propertyValue: string };
  excludedFolders: string[];
  fieldMapping: FieldMapping;
  statuses: Array<{ value: string; label: string; isCompleted: boolean }>;
  priorities: Array<{ value: string; label: string; weight: number }>;
  userFields: Array<{ id: string; key: string }>;
  visibleProperties: string[];
  /** Command id → vault-relative path, defaults merged with the user's mapping. */
  commandFileMapping: Record<string, string>;
}

const VIEWS = 'TaskNotes/Views';

export const DEFAULT_COMMAND_FILE_MAPPING: Readonly<Record<string, string>> = Object.freeze({
  'open-calendar-view': `${VIEWS}/mini-calendar-default.base`,
  'open-kanban-view': `${VIEWS}/kanban-default.base`,
  'open-tasks-view': `${VIEWS}/tasks-default.base`,
  'open-advanced-calendar-view': `${VIEWS}/calendar-default.base`,
  'open-agenda-view': `${VIEWS}/agenda-default.base`,
  'pomodoro-stats-base': `${VIEWS}/pomodoro-stats.base`,
  relationships: `${VIEWS}/relationships.base`,
});

export const DEFAULT_VISIBLE_PROPERTIES: readonly string[] = [
  'status',
  'priority',
  'due',
  'scheduled',
  'projects',
  'contexts',
  'tags',
  'blocked',
  'blocking',
];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function basesSettingsFrom(settings: TaskNotesSettings, extras: PluginExtras): BasesSettings {
  const commandFileMapping: Record<string, string> = { ...DEFAULT_COMMAND_FILE_MAPPING };
  if (isRecord(extras.commandFileMapping)) {
    for (const [command, file] of Object.entries(extras.commandFileMapping)) {
      if (typeof file === 'string') commandFileMapping[command] = file;
    }
  }
  const visible = Array.isArray(extras.defaultVisibleProperties)
    ? extras.defaultVisibleProperties.filter((p): p is string => typeof p === 'string')
    : [...DEFAULT_VISIBLE_PROPERTIES];
  return {
    identification: {
      method: settings.taskIdentificationMethod,
      tag: settings.taskTag || 'task',
      propertyName: settings.taskPropertyName,
      propertyValue: settings.taskPropertyValue,
    },
    excludedFolders: excludedFolderList(settings),
    fieldMapping: settings.fieldMapping,
    statuses: settings.customStatuses.map(({ value, label, isCompleted }) => ({ value, label, isCompleted })),
    priorities: settings.customPriorities.map(({ value, label, weight }) => ({ value, label, weight })),
    userFields: settings.userFields.map(({ id, key }) => ({ id, key })),
    visibleProperties: visible,
    commandFileMapping,
  };
}
