/**
 * The slice of the TaskNotes settings that configures the natural-language parser (as in the
 * TaskNotes plugin), taken from the effective settings the task service reports (defaults
 * overlaid by `.obsidian/plugins/tasknotes/data.json`, see tasknotes-settings.ts), so a vault
 * without a data.json parses exactly like a fresh TaskNotes install.
 */
import type { NLPTriggersConfig, PriorityConfig, StatusConfig, UserMappedField } from 'tasknotes-nlp-core';
import type { TaskNotesSettings } from '../tasks/tasknotes-settings.js';

export interface NlpSettings {
  statuses: StatusConfig[];
  priorities: PriorityConfig[];
  defaultTaskStatus: string;
  defaultTaskPriority: string;
  defaultToScheduled: boolean;
  language: string;
  triggers: NLPTriggersConfig;
  userFields: UserMappedField[];
  /** Decides day-first vs month-first numeric dates (03/04/2026). */
  dateLocale: string;
}

/** The host's locale stands in for the browser's `navigator.language` of the reference. */
function systemLocale(): string {
  return Intl.DateTimeFormat().resolvedOptions().locale;
}

export function nlpSettingsFrom(settings: TaskNotesSettings): NlpSettings {
  return {
    statuses: settings.customStatuses.map((s) => ({
      id: s.id,
      value: s.value,
      label: s.label,
      color: s.color,
      isCompleted: s.isCompleted,
      order: s.order,
      autoArchive: s.autoArchive,
      autoArchiveDelay: s.autoArchiveDelay,
    })),
    priorities: settings.customPriorities.map(({ id, value, label, color, weight }) => ({
      id,
      value,
      label,
      color,
      weight,
    })),
    defaultTaskStatus: settings.defaultTaskStatus,
    defaultTaskPriority: settings.defaultTaskPriority,
    defaultToScheduled: settings.nlpDefaultToScheduled,
    language: settings.nlpLanguage,
    triggers: settings.nlpTriggers,
    userFields: settings.userFields.map(({ id, key, displayName, type }) => ({ id, key, displayName, type })),
    dateLocale: settings.calendarViewSettings.locale || systemLocale() || settings.nlpLanguage,
  };
}
