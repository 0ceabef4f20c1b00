/**
 * Turns an edited task draft (TaskInfo field names) into frontmatter key changes. Only the fields
 * that differ from the task as read are written, so untouched keys keep their exact form on disk.
 *
 * Rules: a mapped field goes to its mapped key (null, blank or [] deletes it, SPEC §6); `tags` and
 * `archived` together decide the tags list, which always keeps the identification tag; changed
 * `customProperties` entries of configured user fields are written as their keys; any other key is
 * a raw frontmatter key (undefined or null deletes it). `title` and `details` are left to the
 * caller (they can rename the file or replace the body).
 */
import { isDeepStrictEqual } from 'node:util';
import { denormalizeField, frontmatterKeyOf, normalizeTag, normalizeTags } from './field-mapping.js';
import { tagsWithIdentification } from './identification.js';
import type { TaskNotesSettings } from './tasknotes-settings.js';

/** Read-shape keys that are computed or handled elsewhere, never written as raw keys. */
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

export type Change = readonly [key: string, value: unknown];

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
    // identification tag restored (SPEC §6).
    const requested = normalizeTags(draft.tags).filter((t) => t !== archiveTag);
    tags =
      settings.taskIdentificationMethod === 'tag' ? tagsWithIdentification(requested, settings) : requested;
    if (archived) tags.push(archiveTag);
  } else {
    // Archive toggle only: edit the raw list as the reference does (reference §1.8).
    const current = raw.tags;
    const list = Array.isArray(current)
      ? current.map((t) => String(t))
      : current === undefined || current === null
        ? []
        : [String(current)];
    tags = archived
      ? list.includes(archiveTag)
        ? list
        : [...list, archiveTag]
      : list.filter((t) => t !== archiveTag);
  }
  return tags.length > 0 ? tags : undefined;
}
