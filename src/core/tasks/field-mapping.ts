/**
 * The TaskNotes field mapping as a pure module: which frontmatter key holds which task field,
 * and the conversions between raw frontmatter values and TaskInfo values. The fields themselves
 * (and how each is read) are the rows of task-fields.ts.
 */
import { dependencyViews } from '../dependencies/entry.js';
import { canonicalDependency } from '../dependencies/normalize.js';
import { normalizeReminderList } from '../reminders/normalize.js';
import { MAPPED_FIELDS, type TaskField } from './task-fields.js';

/** Internal field name → frontmatter key. Every key can be remapped by the user. */
export interface FieldMapping {
  title: string;
  status: string;
  priority: string;
  due: string;
  scheduled: string;
  contexts: string;
  projects: string;
  attachments: string;
  timeEstimate: string;
  completedDate: string;
  dateCreated: string;
  dateModified: string;
  recurrence: string;
  recurrenceAnchor: string;
  completeInstances: string;
  skippedInstances: string;
  recurrenceParent: string;
  occurrenceDate: string;
  occurrenceMaterialization: string;
  occurrenceNextTrigger: string;
  occurrenceTemplate: string;
  occurrencePastHorizon: string;
  occurrenceFutureHorizon: string;
  archiveTag: string;
  timeEntries: string;
  blockedBy: string;
  pomodoros: string;
  icsEventId: string;
  icsEventTag: string;
  googleCalendarEventId: string;
  googleCalendarExceptionEventId: string;
  googleCalendarExceptionOriginalScheduled: string;
  googleCalendarMovedOriginalDates: string;
  reminders: string;
  sortOrder: string;
}

export const DEFAULT_FIELD_MAPPING: Readonly<FieldMapping> = Object.freeze({
  title: 'title',
  status: 'status',
  priority: 'priority',
  due: 'due',
  scheduled: 'scheduled',
  contexts: 'contexts',
  projects: 'projects',
  attachments: 'attachments',
  timeEstimate: 'timeEstimate',
  completedDate: 'completedDate',
  dateCreated: 'dateCreated',
  dateModified: 'dateModified',
  recurrence: 'recurrence',
  recurrenceAnchor: 'recurrence_anchor',
  completeInstances: 'complete_instances',
  skippedInstances: 'skipped_instances',
  recurrenceParent: 'recurrence_parent',
  occurrenceDate: 'occurrence_date',
  occurrenceMaterialization: 'occurrence_materialization',
  occurrenceNextTrigger: 'occurrence_next_trigger',
  occurrenceTemplate: 'occurrence_template',
  occurrencePastHorizon: 'occurrence_past_horizon',
  occurrenceFutureHorizon: 'occurrence_future_horizon',
  archiveTag: 'archived',
  timeEntries: 'timeEntries',
  blockedBy: 'blockedBy',
  pomodoros: 'pomodoros',
  icsEventId: 'icsEventId',
  icsEventTag: 'ics_event',
  googleCalendarEventId: 'googleCalendarEventId',
  googleCalendarExceptionEventId: 'googleCalendarExceptionEventId',
  googleCalendarExceptionOriginalScheduled: 'googleCalendarExceptionOriginalScheduled',
  googleCalendarMovedOriginalDates: 'googleCalendarMovedOriginalDates',
  reminders: 'reminders',
  sortOrder: 'tasknotes_manual_order',
});

/** Merges a user's (partial, possibly malformed) mapping over the defaults; non-strings are ignored. */
export function buildFieldMapping(partial?: unknown): FieldMapping {
  const mapping: FieldMapping = { ...DEFAULT_FIELD_MAPPING };
  if (partial && typeof partial === 'object') {
    for (const [key, value] of Object.entries(partial)) {
      if (Object.hasOwn(mapping, key) && typeof value === 'string' && value.trim() !== '') {
        mapping[key as keyof FieldMapping] = value.trim();
      }
    }
  }
  return mapping;
}

export interface StatusLike {
  value: string;
  label?: string;
  isCompleted?: boolean;
}

/** "Completed" means the status's config has `isCompleted: true` (as in the TaskNotes plugin). */
export function isCompletedStatus(status: string | undefined, statuses: readonly StatusLike[]): boolean {
  if (status === undefined) return false;
  return statuses.some((s) => s.value === status && s.isCompleted === true);
}

/** Value lookup of the TaskNotes plugin: value, unique label, unique ci value, unique ci label; else raw. */
export function lookupConfigValue(raw: string, configs: readonly StatusLike[]): string {
  const exact = configs.find((c) => c.value === raw);
  if (exact) return exact.value;
  const unique = (pred: (c: StatusLike) => boolean): string | undefined => {
    const hits = configs.filter(pred);
    return hits.length === 1 ? hits[0]!.value : undefined;
  };
  const t = raw.trim().toLowerCase();
  return (
    unique((c) => c.label === raw) ??
    unique((c) => c.value.trim().toLowerCase() === t) ??
    unique((c) => (c.label ?? '').trim().toLowerCase() === t) ??
    raw
  );
}

/** Tag normalisation of the TaskNotes plugin: trim, drop one leading `#`, whitespace runs → `-`. */
export function normalizeTag(tag: string): string {
  // Most tags need none of it: tested first, as this runs for every tag of every task.
  if (!NEEDS_TAG_WORK.test(tag)) return tag;
  return tag.trim().replace(/^#/, '').replace(/\s+/g, '-');
}

const NEEDS_TAG_WORK = /^#|\s/;

/** Frontmatter `tags` (list or scalar) → normalised, de-duplicated list. */
export function normalizeTags(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  const out: string[] = [];
  for (const item of list) {
    if (item === null || item === undefined || typeof item === 'object') continue;
    const tag = normalizeTag(String(item));
    if (tag !== '') out.push(tag);
  }
  return withoutRepeats(out);
}

/**
 * `values` with each value once, where it first occurs (a Set: searching what was kept for each
 * value made a task with 40,000 tags hold the server for 5 s).
 */
function withoutRepeats(values: string[]): string[] {
  const kept = new Set(values);
  return kept.size === values.length ? values : [...kept];
}

/** Scalar-ish string normalisation: blank → absent, numbers/booleans stringified, 1-list unwrapped. */
export function toOptionalString(raw: unknown): string | undefined {
  let value = raw;
  if (Array.isArray(value)) {
    if (value.length !== 1) return undefined;
    value = value[0];
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return undefined;
  return value.trim() === '' ? undefined : value;
}

/**
 * List normalisation: scalar wrapped, elements stringified. An empty key (`contexts:`, YAML null)
 * holds no list and an empty item no value: the reference read them as the text "null", so a
 * cleared list listed a context named "null" and did not count as empty (docs/api-decisions.md).
 */
export function toStringList(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const list = Array.isArray(raw) ? raw : [raw];
  return list
    .filter((item) => item !== null)
    .map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item)));
}

export function toOptionalNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  return undefined;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isValidDateOnly(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

/** complete_instances / skipped_instances: scalar wrapped, cut to the date part, invalid dropped, unique. */
export function toInstanceList(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const list = Array.isArray(raw) ? raw : [raw];
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string' && typeof item !== 'number') continue;
    const date = String(item).trim().slice(0, 10);
    if (isValidDateOnly(date)) out.push(date);
  }
  return withoutRepeats(out);
}

export interface UserFieldLike {
  key: string;
}

export interface NormalizeOptions {
  mapping: FieldMapping;
  statuses: readonly StatusLike[];
  priorities: readonly StatusLike[];
  userFields: readonly UserFieldLike[];
  defaultStatus: string;
  /** Vault-relative path; the title falls back to its basename. */
  path: string;
}

/** A note's status as the read shape has it: the configured value it names, else the default. */
export function normalizeStatus(
  fm: Record<string, unknown>,
  opts: Pick<NormalizeOptions, 'mapping' | 'statuses' | 'defaultStatus'>,
): string {
  const status = toOptionalString(fm[opts.mapping.status]);
  return status === undefined ? opts.defaultStatus : lookupConfigValue(status, opts.statuses);
}

/** The mapped fields (title, status and priority apart) whose key a note has, found by key. */
interface KeyPlan {
  fields: ReadonlyArray<TaskField & { mapping: keyof FieldMapping }>;
  /** Frontmatter key → positions in `fields` (one key may hold several fields). */
  byKey: ReadonlyMap<string, readonly number[]>;
}

const HEAD_FIELDS = new Set(['title', 'status', 'priority']);
const keyPlans = new WeakMap<FieldMapping, KeyPlan>();

function keyPlanOf(mapping: FieldMapping): KeyPlan {
  let plan = keyPlans.get(mapping);
  if (!plan) {
    const fields = MAPPED_FIELDS.filter((f) => !HEAD_FIELDS.has(f.prop));
    const byKey = new Map<string, number[]>();
    fields.forEach((field, i) => {
      const key = mapping[field.mapping];
      const list = byKey.get(key);
      if (list) list.push(i);
      else byKey.set(key, [i]);
    });
    plan = { fields, byKey };
    keyPlans.set(mapping, plan);
  }
  return plan;
}

/**
 * Frontmatter → TaskInfo fields (as in the TaskNotes plugin), without the computed ones (`id`,
 * blocking, `totalTrackedTime`), set on `out`: a new object by default, where keys whose value
 * would be undefined are left out and the fields come in the order of the field table; or a read
 * shape to fill (task-graph.ts, newViewShape), whose keys are all there already. It runs for every
 * task of the vault on the first query (100,000 on the scale bench), so it looks up the note's own
 * keys (a dozen) in the table rather than every row of the table (three dozen) in the note.
 */
export function normalizeFrontmatter(
  fm: Record<string, unknown>,
  opts: NormalizeOptions,
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  const { mapping } = opts;
  out.path = opts.path;

  const rawTitle = fm[mapping.title];
  let title: string | undefined;
  if (Array.isArray(rawTitle)) title = rawTitle.map(String).join(', ');
  else if (typeof rawTitle === 'number' || typeof rawTitle === 'boolean') title = String(rawTitle);
  else if (typeof rawTitle === 'string') title = rawTitle;
  if (title === undefined || title.trim() === '') {
    const base = opts.path.split('/').pop() ?? '';
    title = base.replace(/\.md$/i, '').trim() || 'Untitled task';
  }
  out.title = title;

  out.status = normalizeStatus(fm, opts);
  const priority = toOptionalString(fm[mapping.priority]);
  out.priority = priority === undefined ? 'normal' : lookupConfigValue(priority, opts.priorities);

  const plan = keyPlanOf(mapping);
  const hits: number[] = [];
  for (const key of Object.keys(fm)) {
    const positions = plan.byKey.get(key);
    if (positions) for (const i of positions) hits.push(i);
  }
  hits.sort((a, b) => a - b);
  for (const i of hits) {
    const field = plan.fields[i]!;
    const value = normalizeField(field, fm[mapping[field.mapping]]);
    if (value !== undefined) out[field.prop] = value;
  }
  out.contexts ??= [];
  out.projects ??= [];

  const tags = normalizeTags(fm.tags);
  out.tags = tags;
  out.archived = tags.includes(normalizeTag(mapping.archiveTag));

  const custom: Record<string, unknown> = {};
  for (const field of opts.userFields) {
    if (field.key && Object.hasOwn(fm, field.key)) {
      custom[field.key] = fm[field.key];
      out[field.key] = fm[field.key];
    }
  }
  if (Object.keys(custom).length > 0) out.customProperties = custom;
  return out;
}

function normalizeField(field: TaskField, raw: unknown): unknown {
  switch (field.kind) {
    case 'string':
      return toOptionalString(raw);
    case 'list':
      return toStringList(raw);
    case 'number':
      return toOptionalNumber(raw);
    case 'instances':
      return toInstanceList(raw);
    case 'enum': {
      const value = toOptionalString(raw);
      if (value === undefined) return undefined;
      if (field.values?.includes(value)) return value;
      return field.prop === 'recurrence_anchor' ? 'scheduled' : undefined;
    }
    case 'dependencies':
      return dependencyViews(raw);
    case 'timeEntries':
      return Array.isArray(raw) ? raw : [];
    case 'attachments': {
      const list = (Array.isArray(raw) ? raw : [raw])
        .filter((a): a is string => typeof a === 'string')
        .map((a) => a.trim())
        .filter((a) => a !== '');
      return list.length > 0 ? list : undefined;
    }
    case 'reminders': {
      if (raw === null || raw === undefined) return undefined;
      const list = (Array.isArray(raw) ? raw : [raw]).filter((r) => r !== null && r !== undefined);
      return list.length > 0 ? list : undefined;
    }
    default:
      return undefined;
  }
}

/** null, undefined, a blank string or an empty list: what PUT and create treat as "no value" (docs/api-decisions.md). */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * TaskInfo property value → frontmatter value for writing. Returns undefined for "delete the key"
 * (undefined or null); other values, empty lists included, are written.
 */
export function denormalizeField(prop: string, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (prop === 'status' && (value === 'true' || value === 'false')) return value === 'true';
  if (prop === 'blockedBy' && Array.isArray(value)) {
    return value.map((entry) => canonicalDependency(entry)).filter((entry) => entry !== null);
  }
  // Reminders without an id get one unique in the task (the scheduler and edits address them by
  // id); absolute times are written as UTC instants.
  if (prop === 'reminders' && Array.isArray(value))
    return normalizeReminderList(value, { generateIds: true }).reminders;
  if (prop === 'timeEntries' && Array.isArray(value)) {
    return value.map((entry: unknown) => {
      if (!entry || typeof entry !== 'object') return entry;
      const { duration: _legacy, ...rest } = entry as Record<string, unknown>;
      return rest;
    });
  }
  return value;
}
