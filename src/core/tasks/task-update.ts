/**
 * Changing a task, as a pure plan: every write of an existing note (PUT, toggle-status, archive,
 * time tracking, recurrence, reminders) edits a draft of the task in read-shape field names, and
 * `planEdit` turns the edited draft into the frontmatter changes, the new body, the new title and
 * the move that the task service then writes. Nothing here reads or writes files.
 *
 * PUT's own rules (which body keys change which fields, `null`/blank/`[]` deletes, status with its
 * completedDate rule, user fields via top-level keys or `customProperties`, raw keys via
 * `customFrontmatter`, DTSTART for a rule that lacks one) are `applyPatch`.
 */
import { isDeepStrictEqual } from 'node:util';
import { checkFieldDepth } from '../nesting-depth.js';
import {
  denormalizeField,
  isCompletedStatus,
  isEmptyValue,
  lookupConfigValue,
  normalizeTag,
  normalizeTags,
} from './field-mapping.js';
import { archiveTask, unarchiveTask } from '../operations/archive.js';
import { completeTask, uncompleteTask } from '../operations/completion.js';
import { pathForRetitle, type TitleStorage } from '../operations/rename.js';
import { processFolderTemplate, storageTitle } from './filename.js';
import { withIdentification } from './identification.js';
import { ensureDtstart, stripRrulePrefix } from '../recurrence/dtstart.js';
import { localDate, localIsoTimestamp } from './local-time.js';
import { frontmatterKeyOf, UPDATABLE_FIELDS } from './task-fields.js';
import type { TaskInfo } from './task-info.js';
import type { TaskNotesSettings } from './tasknotes-settings.js';

/** Runs inside PUT after the patch is applied to the draft, before the write (e.g. recurrence). */
export type UpdateAdjuster = (ctx: {
  before: TaskInfo;
  draft: Record<string, unknown>;
  patch: Record<string, unknown>;
  settings: TaskNotesSettings;
  now: number;
}) => void;

export interface PatchContext {
  settings: TaskNotesSettings;
  now: number;
  adjusters: readonly UpdateAdjuster[];
}

/** One frontmatter change: the key and its new value (undefined removes the key). */
export type Change = readonly [key: string, value: unknown];

/** Sets a status (normalised to the configured value) and keeps completedDate in step with it. */
export function setStatus(
  draft: Record<string, unknown>,
  status: string,
  settings: TaskNotesSettings,
  now: number,
): void {
  const statuses = settings.customStatuses;
  const wasCompleted = isCompletedStatus(String(draft.status), statuses);
  // A label or differently-cased value is written as the configured value.
  const value = lookupConfigValue(status, statuses);
  draft.status = value;
  // completedDate tracks completion for non-recurring tasks only.
  if (draft.recurrence) return;
  if (isCompletedStatus(value, statuses)) {
    // Completing keeps the date of a task that was already completed, else records today.
    const current = { status: value, completedDate: wasCompleted ? draft.completedDate : undefined };
    draft.completedDate = completeTask(current, {
      completedValues: [value],
      today: localDate(now),
    }).completedDate;
  } else {
    // Reopening clears the completion date.
    const reopened = uncompleteTask(draft, { defaultStatus: value, clearCompletedDate: true });
    draft.completedDate = reopened.completedDate ?? undefined;
  }
}

/** PUT: applies a request body to the draft. */
export function applyPatch(
  draft: Record<string, unknown>,
  before: TaskInfo,
  patch: Record<string, unknown>,
  { settings, now, adjusters }: PatchContext,
): void {
  checkFieldDepth(patch);
  const userKeys = new Set(settings.userFields.map((f) => f.key));
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'status' || key === 'customFrontmatter' || key === 'customProperties') continue;
    if (key === 'details') draft.details = typeof value === 'string' ? value : '';
    // null, a blank string or [] deletes the field.
    else if (UPDATABLE_FIELDS.has(key) || userKeys.has(key))
      draft[key] = isEmptyValue(value) ? undefined : value;
  }
  if (patch.customProperties && typeof patch.customProperties === 'object') {
    // customProperties updates existing values too; a top-level key of the same name wins.
    const custom = { ...((draft.customProperties as Record<string, unknown> | undefined) ?? {}) };
    for (const [key, value] of Object.entries(patch.customProperties)) {
      if (userKeys.has(key) && !Object.hasOwn(patch, key))
        custom[key] = isEmptyValue(value) ? undefined : value;
    }
    draft.customProperties = custom;
  }
  if (typeof patch.status === 'string' || typeof patch.status === 'boolean') {
    setStatus(draft, String(patch.status), settings, now);
    const explicit = patch.completedDate;
    if (typeof explicit === 'string' && isCompletedStatus(String(draft.status), settings.customStatuses)) {
      draft.completedDate = explicit;
    }
  }
  if (patch.customFrontmatter && typeof patch.customFrontmatter === 'object') {
    for (const [key, value] of Object.entries(patch.customFrontmatter)) draft[key] = value ?? undefined;
  }
  // A rule without DTSTART gets one from the (new) scheduled date.
  if (typeof draft.recurrence === 'string' && draft.recurrence.trim() !== '') {
    const anchor = (draft.scheduled as string | undefined) ?? (draft.dateCreated as string | undefined);
    draft.recurrence = ensureDtstart(
      stripRrulePrefix(draft.recurrence),
      anchor?.slice(0, anchor.includes('T') ? 16 : 10),
    );
  }
  for (const adjust of adjusters) adjust({ before, draft, patch, settings, now });
  // dateModified is always the server's time on PUT; a client value is overwritten.
  draft.dateModified = localIsoTimestamp(now);
}

/** Read-shape keys that are computed or handled apart, never written as raw keys. */
const NOT_WRITTEN = new Set([
  'id',
  'path',
  'totalTrackedTime',
  'isBlocked',
  'isBlocking',
  'blocking',
  'details',
  'title',
  'tags',
  'archived',
  'customProperties',
]);

/**
 * The frontmatter changes of an edited draft: only fields that differ from the task as read, so
 * untouched keys keep their exact form on disk. A mapped field goes to its mapped key; `tags` and
 * `archived` together decide the tags list, which always keeps the identification tag; changed
 * `customProperties` entries of configured user fields are written as their keys; any other key is
 * a raw frontmatter key (undefined or null deletes it). `title` and `details` are left to the
 * caller (they can rename the file or replace the body).
 */
export function changesFromDraft(
  base: Record<string, unknown>,
  draft: Record<string, unknown>,
  rawFrontmatter: Record<string, unknown>,
  settings: TaskNotesSettings,
): Change[] {
  const changes = new Map<string, unknown>();
  const changed = (key: string): boolean =>
    Object.hasOwn(draft, key) !== Object.hasOwn(base, key) || !isDeepStrictEqual(draft[key], base[key]);

  for (const key of new Set([...Object.keys(base), ...Object.keys(draft)])) {
    if (NOT_WRITTEN.has(key) || !changed(key)) continue;
    const mapped = frontmatterKeyOf(settings.fieldMapping, key);
    if (mapped !== undefined) changes.set(mapped, denormalizeField(key, draft[key]));
    else changes.set(key, draft[key] === null ? undefined : draft[key]);
  }

  if (changed('customProperties')) {
    const before = (base.customProperties ?? {}) as Record<string, unknown>;
    const after = (draft.customProperties ?? {}) as Record<string, unknown>;
    for (const field of settings.userFields) {
      // A changed top-level value of the same key wins over customProperties.
      if (changes.has(field.key) || isDeepStrictEqual(before[field.key], after[field.key])) continue;
      const value = after[field.key];
      changes.set(field.key, value === null ? undefined : value);
    }
  }

  if (changed('tags') || changed('archived')) {
    changes.set('tags', tagsValue(base, draft, rawFrontmatter, settings, changed('tags')));
  }
  return [...changes.entries()];
}

function tagsValue(
  base: Record<string, unknown>,
  draft: Record<string, unknown>,
  raw: Record<string, unknown>,
  settings: TaskNotesSettings,
  tagsChanged: boolean,
): string[] | undefined {
  const archiveTag = normalizeTag(settings.fieldMapping.archiveTag);
  const archived = draft.archived === undefined ? base.archived === true : draft.archived === true;
  let tags: string[];
  if (tagsChanged) {
    // The client's list, without the archive tag (the `archived` flag decides it) and with the
    // identification tag restored.
    const requested = normalizeTags(draft.tags).filter((t) => t !== archiveTag);
    tags =
      settings.taskIdentificationMethod === 'tag'
        ? normalizeTags(withIdentification({ tags: requested }, settings).tags)
        : requested;
    if (archived) tags.push(archiveTag);
  } else {
    // Archive toggle only: the archive tag added to or removed from the list as written.
    const next = archived
      ? archiveTask(raw, 'tag', archiveTag)
      : { frontmatter: unarchiveTask(raw, archiveTag) };
    tags = 'frontmatter' in next ? (next.frontmatter.tags as string[]) : [];
  }
  return tags.length > 0 ? tags : undefined;
}

/** The task as read, for planning a change. */
export interface NoteState {
  /** Vault-relative path. */
  path: string;
  /** Read-shape fields (no computed ones). */
  base: Record<string, unknown>;
  /** Frontmatter as written. */
  frontmatter: Record<string, unknown>;
  details: string;
}

/** Where an edit moves the note: a folder and a base name (no `.md`). */
export interface PlannedMove {
  folder: string;
  name: string;
  /**
   * Only this exact name will do: when it is taken the note stays where it is (an archive move
   * onto an existing file is skipped). Otherwise a free name with a `-2`… suffix is chosen.
   */
  exact: boolean;
}

export interface EditPlan {
  /** Frontmatter changes, `dateModified` included; the title key is added by `withTitle`. */
  changes: Change[];
  /** The new storage title, when it changed. */
  title?: string;
  /** The new body, when it changed. */
  details?: string;
  move?: PlannedMove;
}

const titleStorage = (settings: TaskNotesSettings): TitleStorage =>
  settings.storeTitleInFilename ? 'filename' : 'frontmatter';

const folderOf = (rel: string): string => {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
};
const baseNameOf = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1).replace(/\.md$/i, '');

/**
 * Plans the write of an edited draft, or null when nothing changes. `archiveMove` says the edit is
 * an archive toggle, which moves the note between the tasks and archive folders when the settings
 * ask for it; a title change renames the note when the title is stored in the filename.
 */
export function planEdit(
  note: NoteState,
  draft: Record<string, unknown>,
  settings: TaskNotesSettings,
  now: number,
  archiveMove: boolean,
): EditPlan | null {
  const { base } = note;
  const changes = changesFromDraft(base, draft, note.frontmatter, settings);
  const details =
    typeof draft.details === 'string' && draft.details !== note.details ? draft.details : undefined;
  const newTitle =
    typeof draft.title === 'string' && draft.title.trim() !== '' ? storageTitle(draft.title) : undefined;
  const title = newTitle !== undefined && newTitle !== base.title ? newTitle : undefined;
  if (changes.length === 0 && title === undefined && details === undefined) return null;
  const dateModified = settings.fieldMapping.dateModified;
  if (!changes.some(([key]) => key === dateModified)) changes.push([dateModified, localIsoTimestamp(now)]);

  const plan: EditPlan = { changes };
  if (title !== undefined) plan.title = title;
  if (details !== undefined) plan.details = details;
  const retitled = title === undefined ? undefined : pathForRetitle(titleStorage(settings), note.path, title);
  if (retitled?.renamed) {
    plan.move = { folder: folderOf(retitled.path), name: baseNameOf(retitled.path), exact: false };
  } else if (archiveMove && settings.moveArchivedTasks) {
    const folder = processFolderTemplate(draft.archived ? settings.archiveFolder : settings.tasksFolder, {
      title: String(draft.title),
      now,
    });
    if (folder !== folderOf(note.path)) plan.move = { folder, name: baseNameOf(note.path), exact: true };
  }
  return plan;
}

/**
 * The plan's changes with the title key for the note's final path: with the title in the
 * filename, the title key is kept only when it differs from the file's name.
 */
export function withTitle(plan: EditPlan, finalPath: string, settings: TaskNotesSettings): Change[] {
  if (plan.title === undefined) return plan.changes;
  const keep = !settings.storeTitleInFilename || baseNameOf(finalPath) !== plan.title;
  return [...plan.changes, [settings.fieldMapping.title, keep ? plan.title : undefined]];
}
