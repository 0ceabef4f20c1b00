/**
 * Plans a new task note from a POST /api/tasks body (as in the TaskNotes plugin): the
 * creation defaults, the frontmatter in its fixed key order, the folder and base filename. Pure
 * apart from reading the clock value it is given; the service picks the unique path and writes.
 */
import { checkFieldDepth } from '../nesting-depth.js';
import {
  denormalizeField,
  isEmptyValue,
  lookupConfigValue,
  normalizeTags,
  type FieldMapping,
} from './field-mapping.js';
import { baseFilename, processFolderTemplate, storageTitle, type FilenameContext } from './filename.js';
import { withIdentification } from './identification.js';
import { ensureDtstart, stripRrulePrefix } from '../recurrence/dtstart.js';
import { localDate, localIsoTimestamp } from './local-time.js';
import type { TemplateTask } from '../templating/variables.js';
import { TASK_FIELDS, type TaskCreateInput } from './task-fields.js';
import { isCompletedStatusIn, type TaskNotesSettings } from './tasknotes-settings.js';

export type { TaskCreateInput };

export interface CreatePlan {
  folder: string;
  baseName: string;
  /** The storage title; written to frontmatter unless it equals the final filename. */
  title: string;
  /** Frontmatter in write order, the title key not yet included. */
  frontmatter: Record<string, unknown>;
  details: string;
  /** The new task's values as a body template sees them (its `{{variables}}`). */
  templateTask: TemplateTask;
  /** Inserts the title key first when the final filename does not carry the title. */
  finalize(finalBaseName: string): Record<string, unknown>;
}

const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];

const commaList = (value: string): string[] =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

function defaultDate(setting: string, now: number): string | undefined {
  const day = 86_400_000;
  switch (setting) {
    case 'today':
      return localDate(now);
    case 'tomorrow':
      return localDate(now + day);
    case 'next-week':
      return localDate(now + 7 * day);
    default:
      return undefined;
  }
}

function withDefaultTime(date: string | undefined, time: string): string | undefined {
  return date !== undefined && /^\d{2}:\d{2}$/.test(time) ? `${date}T${time}` : date;
}

const PRESET_RULES: Record<string, string> = {
  daily: 'FREQ=DAILY;INTERVAL=1',
  weekly: 'FREQ=WEEKLY;INTERVAL=1',
  monthly: 'FREQ=MONTHLY;INTERVAL=1',
  yearly: 'FREQ=YEARLY;INTERVAL=1',
};

export function planCreate(input: TaskCreateInput, settings: TaskNotesSettings, now: number): CreatePlan {
  checkFieldDepth(input);
  const mapping: FieldMapping = settings.fieldMapping;
  const defaults = settings.taskCreationDefaults;
  const title = storageTitle(input.title);

  const scheduled =
    input.scheduled === undefined
      ? withDefaultTime(defaultDate(defaults.defaultScheduledDate, now), defaults.defaultScheduledTime)
      : input.scheduled || undefined;
  const due =
    input.due === undefined
      ? withDefaultTime(defaultDate(defaults.defaultDueDate, now), defaults.defaultDueTime)
      : input.due || undefined;
  const contexts =
    list(input.contexts).length > 0 ? list(input.contexts) : commaList(defaults.defaultContexts);
  const projects =
    list(input.projects).length > 0 ? list(input.projects) : commaList(defaults.defaultProjects);
  const requestTags = list(input.tags).length > 0 ? list(input.tags) : commaList(defaults.defaultTags);
  // 0 means "none" (the default applies); any other number is written and validated.
  const timeEstimate =
    typeof input.timeEstimate === 'number' && input.timeEstimate !== 0
      ? input.timeEstimate
      : defaults.defaultTimeEstimate > 0
        ? defaults.defaultTimeEstimate
        : undefined;
  const reminders =
    Array.isArray(input.reminders) && input.reminders.length > 0
      ? input.reminders
      : defaults.defaultReminders;
  // A label or differently cased value is written as the configured value, as PUT does.
  const status = lookupConfigValue(input.status || settings.defaultTaskStatus, settings.customStatuses);
  const priority = lookupConfigValue(
    input.priority || settings.defaultTaskPriority,
    settings.customPriorities,
  );
  const dateCreated = input.dateCreated || localIsoTimestamp(now);
  const dateModified = input.dateModified || localIsoTimestamp(now);
  const rawRecurrence = input.recurrence || PRESET_RULES[defaults.defaultRecurrence];
  const recurrence = rawRecurrence
    ? ensureDtstart(stripRrulePrefix(rawRecurrence), scheduled ?? dateCreated.slice(0, 10))
    : undefined;
  const completedDate =
    recurrence === undefined
      ? input.completedDate || (isCompletedStatusIn(settings, status) ? localDate(now) : undefined)
      : undefined;

  // Every field a create may set, in the table's order (the plugin's key order); the values
  // computed above win over the request's.
  const values: Record<string, unknown> = {
    ...input,
    status,
    priority,
    due,
    scheduled,
    contexts,
    projects,
    timeEstimate,
    completedDate,
    recurrence,
    recurrence_anchor: recurrence === undefined ? undefined : input.recurrence_anchor,
    dateCreated,
    dateModified,
    reminders,
  };
  const fm: Record<string, unknown> = {};
  for (const field of TASK_FIELDS) {
    if (!field.create || field.mapping === undefined || field.prop === 'title') continue;
    // Empty values are left out of a new note.
    const value = values[field.prop];
    const written = isEmptyValue(value) ? undefined : denormalizeField(field.prop, value);
    if (written !== undefined && !isEmptyValue(written)) fm[mapping[field.mapping]] = written;
  }

  // Tags, then what identifies the note as a task (in tag mode the task tag, first); `archived`
  // is never added on create (as in the TaskNotes plugin).
  const writtenTags = normalizeTags(requestTags).filter((t) => t !== mapping.archiveTag);
  if (writtenTags.length > 0) fm.tags = writtenTags;
  Object.assign(fm, withIdentification(fm, settings));
  const tags = normalizeTags(fm.tags);

  // User fields: a client value (top level, then customProperties) wins over the field default
  // (docs/api-decisions.md: the plugin let defaults clobber client values).
  for (const field of settings.userFields) {
    const value =
      input[field.key] !== undefined
        ? input[field.key]
        : input.customProperties?.[field.key] !== undefined
          ? input.customProperties[field.key]
          : (field.defaultValue ?? (field.type === 'boolean' ? false : undefined));
    if (value !== undefined && value !== null && value !== '') fm[field.key] = value;
  }
  for (const [key, value] of Object.entries(input.customFrontmatter ?? {})) {
    if (value === null || value === undefined) delete fm[key];
    else fm[key] = value;
  }

  const ctx: FilenameContext = { title, priority, status, due, scheduled, contexts, projects, tags, now };
  const baseName = baseFilename(settings, ctx);
  const folder = processFolderTemplate(settings.tasksFolder, ctx);
  const details = typeof input.details === 'string' ? input.details.replace(/\r\n/g, '\n').trim() : '';
  return {
    folder,
    baseName,
    title,
    frontmatter: fm,
    details,
    templateTask: {
      title,
      status,
      priority,
      dueDate: due?.slice(0, 10),
      scheduledDate: scheduled?.slice(0, 10),
      details,
      contexts,
      tags,
      timeEstimate,
    },
    finalize(finalBaseName: string): Record<string, unknown> {
      const keepTitle = !settings.storeTitleInFilename || finalBaseName !== title;
      if (!keepTitle || Object.hasOwn(fm, mapping.title)) return fm;
      return { [mapping.title]: title, ...fm };
    },
  };
}
