/**
 * The TaskNotes plugin settings Taskdown uses — the on-disk format,
 * the natural-language parser, the pomodoro and the default `.base`
 * files: the plugin's defaults, merged with `<vault>/.obsidian/plugins/tasknotes/data.json`
 * when that file exists. This is the only reader of that file; Taskdown never writes it (docs/architecture.md).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { NLPTriggersConfig, PropertyTriggerConfig } from 'tasknotes-nlp-core';
import { buildFieldMapping, isCompletedStatus, type FieldMapping } from './field-mapping.js';
import { isRecord } from '../is-record.js';
import type { VaultPathPolicy } from '../vault/paths.js';
import { inspectVaultPath } from '../vault/vault-entry.js';

/**
 * tasknotes-nlp-core's DEFAULT_NLP_TRIGGERS, written out: importing the value would load the whole
 * parser (~300 ms) at every server start. test/core/tasks/tasknotes-settings.test.ts keeps the two equal.
 */
export const DEFAULT_NLP_TRIGGERS: NLPTriggersConfig = {
  triggers: [
    { propertyId: 'tags', trigger: '#', enabled: true },
    { propertyId: 'contexts', trigger: '@', enabled: true },
    { propertyId: 'projects', trigger: '+', enabled: true },
    { propertyId: 'status', trigger: '*', enabled: true },
    { propertyId: 'priority', trigger: '!', enabled: false },
  ],
};

export interface StatusConfig {
  id: string;
  value: string;
  label: string;
  color: string;
  isCompleted: boolean;
  excludeFromCycle: boolean;
  order: number;
  autoArchive: boolean;
  autoArchiveDelay: number;
  icon?: string;
  isSkipped?: boolean;
  nextStatus?: string;
}

export interface PriorityConfig {
  id: string;
  value: string;
  label: string;
  color: string;
  weight: number;
  icon?: string;
}

export type UserFieldType = 'text' | 'number' | 'date' | 'boolean' | 'list';

export interface UserField {
  id: string;
  displayName: string;
  key: string;
  type: UserFieldType;
  defaultValue?: unknown;
}

export interface TaskCreationDefaults {
  defaultScheduledDate: string;
  defaultDueDate: string;
  defaultScheduledTime: string;
  defaultDueTime: string;
  defaultContexts: string;
  defaultTags: string;
  defaultProjects: string;
  defaultTimeEstimate: number;
  defaultRecurrence: string;
  defaultReminders: unknown[];
  useBodyTemplate: boolean;
  bodyTemplate: string;
  useOccurrenceBodyTemplate: boolean;
}

export type FilenameFormat = 'title' | 'zettel' | 'timestamp' | 'uuid' | 'custom';

export interface TaskNotesSettings {
  tasksFolder: string;
  archiveFolder: string;
  moveArchivedTasks: boolean;
  taskTag: string;
  taskIdentificationMethod: 'tag' | 'property';
  taskPropertyName: string;
  taskPropertyValue: string;
  excludedFolders: string;
  defaultTaskStatus: string;
  defaultTaskPriority: string;
  storeTitleInFilename: boolean;
  taskFilenameFormat: FilenameFormat;
  customFilenameTemplate: string;
  occurrenceFilenameTemplate: string;
  occurrenceFilenameTemplateProperty: string;
  inlineTaskConvertFolder: string;
  taskCreationDefaults: TaskCreationDefaults;
  maintainDueDateOffsetInRecurring: boolean;
  resetCheckboxesOnRecurrence: boolean;
  hideCompletedFromOverdue: boolean;
  autoStopTimeTrackingOnComplete: boolean;
  useFrontmatterMarkdownLinks: boolean;
  fieldMapping: FieldMapping;
  customStatuses: StatusConfig[];
  customPriorities: PriorityConfig[];
  userFields: UserField[];
  nlpLanguage: string;
  nlpTriggers: NLPTriggersConfig;
  /** Bare dates in NLP text become the scheduled date (else the due date). */
  nlpDefaultToScheduled: boolean;
  /** Only the calendar locale is used: it decides day-first vs month-first numeric dates. */
  calendarViewSettings: { locale: string };
  /** Command id → vault-relative `.base` path: the defaults with the user's entries over them. */
  commandFileMapping: Record<string, string>;
  defaultVisibleProperties: string[];
  /** Pomodoro lengths in minutes. */
  pomodoroWorkDuration: number;
  pomodoroShortBreakDuration: number;
  pomodoroLongBreakDuration: number;
  pomodoroLongBreakInterval: number;
  pomodoroAutoStartBreaks: boolean;
  pomodoroAutoStartWork: boolean;
}

const status = (
  value: string,
  label: string,
  color: string,
  order: number,
  isCompleted = false,
): StatusConfig => ({
  id: value,
  value,
  label,
  color,
  isCompleted,
  excludeFromCycle: false,
  order,
  autoArchive: false,
  autoArchiveDelay: 5,
});

const priority = (value: string, label: string, color: string, weight: number): PriorityConfig => ({
  id: value,
  value,
  label,
  color,
  weight,
});

const VIEWS = 'TaskNotes/Views';

export function defaultTaskNotesSettings(): TaskNotesSettings {
  return {
    tasksFolder: 'TaskNotes/Tasks',
    archiveFolder: 'TaskNotes/Archive',
    moveArchivedTasks: false,
    taskTag: 'task',
    taskIdentificationMethod: 'tag',
    taskPropertyName: '',
    taskPropertyValue: '',
    excludedFolders: '',
    defaultTaskStatus: 'open',
    defaultTaskPriority: 'normal',
    storeTitleInFilename: true,
    taskFilenameFormat: 'zettel',
    customFilenameTemplate: '{{title}}',
    occurrenceFilenameTemplate: '',
    occurrenceFilenameTemplateProperty: 'occurrenceFilenameTemplate',
    inlineTaskConvertFolder: '{{currentNotePath}}',
    taskCreationDefaults: {
      defaultScheduledDate: 'today',
      defaultDueDate: 'none',
      defaultScheduledTime: 'none',
      defaultDueTime: 'none',
      defaultContexts: '',
      defaultTags: '',
      defaultProjects: '',
      defaultTimeEstimate: 0,
      defaultRecurrence: 'none',
      defaultReminders: [],
      useBodyTemplate: false,
      bodyTemplate: '',
      useOccurrenceBodyTemplate: false,
    },
    maintainDueDateOffsetInRecurring: false,
    resetCheckboxesOnRecurrence: false,
    hideCompletedFromOverdue: true,
    autoStopTimeTrackingOnComplete: true,
    useFrontmatterMarkdownLinks: false,
    fieldMapping: buildFieldMapping(),
    customStatuses: [
      status('none', 'None', '#cccccc', 0),
      status('open', 'Open', '#808080', 1),
      status('in-progress', 'In progress', '#0066cc', 2),
      status('done', 'Done', '#00aa00', 3, true),
    ],
    customPriorities: [
      priority('none', 'None', '#cccccc', 0),
      priority('low', 'Low', '#00aa00', 1),
      priority('normal', 'Normal', '#ffaa00', 2),
      priority('high', 'High', '#ff0000', 3),
    ],
    userFields: [],
    nlpLanguage: 'en',
    nlpTriggers: structuredClone(DEFAULT_NLP_TRIGGERS),
    nlpDefaultToScheduled: true,
    // An empty locale means "the system's", as the plugin's auto-detect.
    calendarViewSettings: { locale: '' },
    commandFileMapping: {
      'open-calendar-view': `${VIEWS}/mini-calendar-default.base`,
      'open-kanban-view': `${VIEWS}/kanban-default.base`,
      'open-tasks-view': `${VIEWS}/tasks-default.base`,
      'open-advanced-calendar-view': `${VIEWS}/calendar-default.base`,
      'open-agenda-view': `${VIEWS}/agenda-default.base`,
      'pomodoro-stats-base': `${VIEWS}/pomodoro-stats.base`,
      relationships: `${VIEWS}/relationships.base`,
    },
    defaultVisibleProperties: [
      'status',
      'priority',
      'due',
      'scheduled',
      'projects',
      'contexts',
      'tags',
      'blocked',
      'blocking',
    ],
    pomodoroWorkDuration: 25,
    pomodoroShortBreakDuration: 5,
    pomodoroLongBreakDuration: 15,
    pomodoroLongBreakInterval: 4,
    pomodoroAutoStartBreaks: true,
    pomodoroAutoStartWork: false,
  };
}

type Raw = Record<string, unknown>;

/**
 * Merges a data.json object over the defaults. Each setting is taken only when it has the
 * default's type, so a malformed file degrades to defaults field by field instead of failing.
 * Scalars are merged generically; lists and objects have their own parsers below.
 */
export function mergeTaskNotesSettings(raw: unknown): TaskNotesSettings {
  const settings = defaultTaskNotesSettings();
  if (!isRecord(raw)) return settings;
  const target = settings as unknown as Raw;
  for (const [key, def] of Object.entries(target)) {
    const value = raw[key];
    if (value !== undefined && typeof def !== 'object' && typeof def === typeof value) target[key] = value;
  }
  if (isRecord(raw.taskCreationDefaults)) {
    const defaults = settings.taskCreationDefaults as unknown as Raw;
    for (const [key, def] of Object.entries(defaults)) {
      const value = raw.taskCreationDefaults[key];
      if (
        value !== undefined &&
        (typeof def === typeof value || Array.isArray(def) === Array.isArray(value))
      ) {
        defaults[key] = value;
      }
    }
  }
  settings.fieldMapping = buildFieldMapping(raw.fieldMapping);
  const statuses = parseStatuses(raw.customStatuses);
  if (statuses.length > 0) settings.customStatuses = statuses;
  const priorities = parsePriorities(raw.customPriorities);
  if (priorities.length > 0) settings.customPriorities = priorities;
  settings.userFields = parseUserFields(raw.userFields);
  if (settings.taskIdentificationMethod !== 'property') settings.taskIdentificationMethod = 'tag';
  mergePluginExtras(settings, raw);
  return settings;
}

/** The parser, calendar and `.base` settings: objects and lists of the plugin's own shapes. */
function mergePluginExtras(settings: TaskNotesSettings, raw: Raw): void {
  // An empty language is no language: the parser would have no locale to load.
  if (settings.nlpLanguage === '') settings.nlpLanguage = defaultTaskNotesSettings().nlpLanguage;
  const triggers = parseTriggers(raw.nlpTriggers);
  if (triggers) settings.nlpTriggers = triggers;
  const calendar = raw.calendarViewSettings;
  if (isRecord(calendar) && typeof calendar.locale === 'string') {
    settings.calendarViewSettings.locale = calendar.locale;
  }
  if (isRecord(raw.commandFileMapping)) {
    for (const [command, file] of Object.entries(raw.commandFileMapping)) {
      if (typeof file === 'string') settings.commandFileMapping[command] = file;
    }
  }
  if (Array.isArray(raw.defaultVisibleProperties)) {
    settings.defaultVisibleProperties = raw.defaultVisibleProperties.filter(
      (p): p is string => typeof p === 'string',
    );
  }
}

/** A trigger list replaces the defaults as a whole; malformed entries are dropped. */
function parseTriggers(raw: unknown): NLPTriggersConfig | undefined {
  if (!isRecord(raw) || !Array.isArray(raw.triggers)) return undefined;
  const triggers: PropertyTriggerConfig[] = raw.triggers
    .filter(isRecord)
    .flatMap((t) =>
      typeof t.propertyId === 'string' && typeof t.trigger === 'string' && t.trigger !== ''
        ? [{ propertyId: t.propertyId, trigger: t.trigger, enabled: t.enabled !== false }]
        : [],
    );
  return { triggers };
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const num = (v: unknown, fallback = 0): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;

function parseStatuses(raw: unknown): StatusConfig[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((s, index) => {
    const value = str(s.value);
    if (value === '') return [];
    const config: StatusConfig = {
      id: str(s.id, value),
      value,
      label: str(s.label, value),
      color: str(s.color, '#808080'),
      isCompleted: s.isCompleted === true,
      excludeFromCycle: s.excludeFromCycle === true,
      order: num(s.order, index),
      autoArchive: s.autoArchive === true,
      autoArchiveDelay: num(s.autoArchiveDelay, 5),
    };
    if (typeof s.icon === 'string') config.icon = s.icon;
    if (typeof s.isSkipped === 'boolean') config.isSkipped = s.isSkipped;
    if (typeof s.nextStatus === 'string') config.nextStatus = s.nextStatus;
    return [config];
  });
}

function parsePriorities(raw: unknown): PriorityConfig[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((p, index) => {
    const value = str(p.value);
    if (value === '') return [];
    const config: PriorityConfig = {
      id: str(p.id, value),
      value,
      label: str(p.label, value),
      color: str(p.color, '#808080'),
      weight: num(p.weight, index),
    };
    if (typeof p.icon === 'string') config.icon = p.icon;
    return [config];
  });
}

const USER_FIELD_TYPES: readonly UserFieldType[] = ['text', 'number', 'date', 'boolean', 'list'];

function parseUserFields(raw: unknown): UserField[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((f) => {
    const key = str(f.key).trim();
    if (key === '') return [];
    const type = USER_FIELD_TYPES.includes(f.type as UserFieldType) ? (f.type as UserFieldType) : 'text';
    const field: UserField = { id: str(f.id, key), displayName: str(f.displayName, key), key, type };
    if (f.defaultValue !== undefined) field.defaultValue = f.defaultValue;
    return [field];
  });
}

/** Vault-relative location of the plugin's settings file. */
export const TASKNOTES_DATA_JSON = '.obsidian/plugins/tasknotes/data.json';

/**
 * Reads the effective settings of a vault. A missing file means defaults; an unreadable or
 * malformed file, or one the vault's link rule refuses, is reported through `onError` and also
 * yields defaults.
 */
export async function loadTaskNotesSettings(
  vault: VaultPathPolicy,
  onError: (err: unknown) => void,
): Promise<TaskNotesSettings> {
  let text: string;
  try {
    const entry = inspectVaultPath(vault, TASKNOTES_DATA_JSON);
    if (entry.kind === 'refused') throw new Error(`${TASKNOTES_DATA_JSON}: ${entry.reason}`);
    text = await fs.readFile(
      entry.kind === 'file' ? entry.real : path.join(vault.root, TASKNOTES_DATA_JSON),
      'utf8',
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') onError(err);
    return defaultTaskNotesSettings();
  }
  try {
    return mergeTaskNotesSettings(JSON.parse(text));
  } catch (err) {
    onError(err);
    return defaultTaskNotesSettings();
  }
}

export function isCompletedStatusIn(settings: TaskNotesSettings, status: string | undefined): boolean {
  return isCompletedStatus(status, settings.customStatuses);
}

/** First status with isCompleted (`done` by default, the literal `done` when none is configured). */
export function firstCompletedStatus(settings: TaskNotesSettings): string {
  return settings.customStatuses.find((s) => s.isCompleted)?.value ?? 'done';
}
