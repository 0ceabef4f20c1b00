/**
 * What the default `.base` templates are generated from: task identification, field mapping,
 * statuses, priorities, visible properties and the command → file mapping (as in the
 * TaskNotes plugin), taken from the effective TaskNotes settings.
 */
import type { FieldMapping } from '../tasks/field-mapping.js';
import { excludedFolders } from '../config/task-detection.js';
import type { TaskNotesSettings } from '../tasks/tasknotes-settings.js';

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

export function basesSettingsFrom(settings: TaskNotesSettings): BasesSettings {
  return {
    identification: {
      method: settings.taskIdentificationMethod,
      tag: settings.taskTag || 'task',
      propertyName: settings.taskPropertyName,
      propertyValue: settings.taskPropertyValue,
    },
    excludedFolders: excludedFolders(settings.excludedFolders),
    fieldMapping: settings.fieldMapping,
    statuses: settings.customStatuses.map(({ value, label, isCompleted }) => ({ value, label, isCompleted })),
    priorities: settings.customPriorities.map(({ value, label, weight }) => ({ value, label, weight })),
    userFields: settings.userFields.map(({ id, key }) => ({ id, key })),
    visibleProperties: [...settings.defaultVisibleProperties],
    commandFileMapping: { ...settings.commandFileMapping },
  };
}
