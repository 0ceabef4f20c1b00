/**
 * Plans a new task note from a POST /api/tasks body (reference tasks.md §2.2, §1.6, §1.7): the
 * creation defaults, the frontmatter in its fixed key order, the folder and base filename. Pure
 * apart from reading the clock value it is given; the service picks the unique path and writes.
 */
import { denormalizeField, isEmptyValue, normalizeTags, type FieldMapping } from './field-mapping.js';
import { baseFilename, processFolderTemplate, storageTitle, type FilenameContext } from './filename.js';
import { identificationPropertyValue, tagsWithIdentification } from './identification.js';
import { localDate, localIsoTimestamp, withDtstart } from './local-time.js';
import { isCompletedStatusIn, type TaskNotesSettings } from './tasknotes-settings.js';

/** POST /api/tasks body (reference tasks.md §2.2). Unknown keys are ignored except user-field keys. */
export interface TaskCreateInput {
  title: string;
  details?: string;
  status?: string;
  priority?: string;
  due?: string | null;
  scheduled?: string | null;
  tags?: string[];
  contexts?: string[];
  projects?: string[];
  timeEstimate?: number;
  recurrence?: string | null;
  recurrence_anchor?: string;
  reminders?: Array<Record<string, unknown>>;
  blockedBy?: Array<Record<string, unknown> | string>;
  completedDate?: string;
  dateCreated?: string;
  dateModified?: string;
  icsEventId?: string[];
  recurrence_parent?: string;
  occurrence_date?: string;
  occurrence_materialization?: string;
  occurrence_next_trigger?: string;
  occurrence_template?: string;
  occurrence_past_horizon?: string;
  occurrence_future_horizon?: string;
  customProperties?: Record<string, unknown>;
  /** Arbitrary frontmatter keys merged in last; `null` leaves a key out. */
  customFrontmatter?: Record<string, unknown>;
  creationContext?: string;
  [key: string]: unknown;
}

export interface CreatePlan {
  folder: string;
  baseName: string;
  /** The storage title; written to frontmatter unless it equals the final filename. */
  title: string;
  /** Frontmatter in write order, the title key not yet included. */
  frontmatter: Record<string, unknown>;
  details: string;
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
  const timeEstimate =
    typeof input.timeEstimate === 'number' && input.timeEstimate > 0
      ? input.timeEstimate
      : defaults.defaultTimeEstimate > 0
        ? defaults.defaultTimeEstimate
        : undefined;
  const reminders =
    Array.isArray(input.reminders) && input.reminders.length > 0
      ? input.reminders
      : defaults.defaultReminders;
  const status = input.status || settings.defaultTaskStatus;
  const priority = input.priority || settings.defaultTaskPriority;
  const dateCreated = input.dateCreated || localIsoTimestamp(now);
  const dateModified = input.dateModified || localIsoTimestamp(now);
  const rawRecurrence = input.recurrence || PRESET_RULES[defaults.defaultRecurrence];
  const recurrence = rawRecurrence
    ? withDtstart(rawRecurrence, scheduled ?? dateCreated.slice(0, 10))
    : undefined;
  const completedDate =
    recurrence === undefined
      ? input.completedDate || (isCompletedStatusIn(settings, status) ? localDate(now) : undefined)
      : undefined;

  const fm: Record<string, unknown> = {};
  // Empty values are left out of a new note (reference §1.6).
  const put = (prop: string, key: string, value: unknown): void => {
    const written = isEmptyValue(value) ? undefined : denormalizeField(prop, value);
    if (written !== undefined && !isEmptyValue(written)) fm[key] = written;
  };
  put('status', mapping.status, status);
  put('priority', mapping.priority, priority);
  put('due', mapping.due, due);
  put('scheduled', mapping.scheduled, scheduled);
  put('contexts', mapping.contexts, contexts);
  put('projects', mapping.projects, projects);
  put('timeEstimate', mapping.timeEstimate, timeEstimate);
  put('completedDate', mapping.completedDate, completedDate);
  put('recurrence', mapping.recurrence, recurrence);
  if (recurrence !== undefined) put('recurrence_anchor', mapping.recurrenceAnchor, input.recurrence_anchor);
  put('recurrence_parent', mapping.recurrenceParent, input.recurrence_parent);
  put('occurrence_date', mapping.occurrenceDate, input.occurrence_date);
  put('occurrence_materialization', mapping.occurrenceMaterialization, input.occurrence_materialization);
  put('occurrence_next_trigger', mapping.occurrenceNextTrigger, input.occurrence_next_trigger);
  put('occurrence_template', mapping.occurrenceTemplate, input.occurrence_template);
  put('occurrence_past_horizon', mapping.occurrencePastHorizon, input.occurrence_past_horizon);
  put('occurrence_future_horizon', mapping.occurrenceFutureHorizon, input.occurrence_future_horizon);
  put('dateCreated', mapping.dateCreated, dateCreated);
  put('dateModified', mapping.dateModified, dateModified);
  put('blockedBy', mapping.blockedBy, input.blockedBy);
  put('icsEventId', mapping.icsEventId, input.icsEventId);
  put('reminders', mapping.reminders, reminders);

  // Tags: in tag mode the task tag first; `archived` is never added on create (reference §1.6).
  const tags =
    settings.taskIdentificationMethod === 'tag'
      ? tagsWithIdentification(requestTags, settings)
      : normalizeTags(requestTags);
  const archiveTag = mapping.archiveTag;
  const writtenTags = tags.filter((t) => t !== archiveTag);
  if (writtenTags.length > 0) fm.tags = writtenTags;
  if (settings.taskIdentificationMethod === 'property' && settings.taskPropertyName !== '') {
    fm[settings.taskPropertyName] = identificationPropertyValue(settings);
  }

  // User fields: a client value (top level, then customProperties) wins over the field default
  // (SPEC §6 fixes the reference letting defaults clobber client values).
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
    finalize(finalBaseName: string): Record<string, unknown> {
      const keepTitle = !settings.storeTitleInFilename || finalBaseName !== title;
      if (!keepTitle || Object.hasOwn(fm, mapping.title)) return fm;
      return { [mapping.title]: title, ...fm };
    },
  };
}
