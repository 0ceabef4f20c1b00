/**
 * Keeping a written note identified as a task (as in the TaskNotes plugin): the task tag in
 * `tags`, or the configured property. Which notes are tasks is config/task-detection.ts.
 */
import { normalizeTag, normalizeTags } from './field-mapping.js';
import type { TaskNotesSettings } from './tasknotes-settings.js';
import { satisfyMatch } from './typed-create.js';

/** The value written for the identification property: "true"/"false" become YAML booleans. */
export function identificationPropertyValue(settings: TaskNotesSettings): string | boolean {
  const v = settings.taskPropertyValue;
  if (v.toLowerCase() === 'true') return true;
  if (v.toLowerCase() === 'false') return false;
  return v;
}

/**
 * What a TaskNotes vault requires of a task note, as a typed collection's `match.where`: its
 * `tags` contain the task tag, or its identification property has the configured value (is
 * present, when no value is configured).
 */
export function identificationMatch(settings: TaskNotesSettings): Record<string, unknown> {
  if (settings.taskIdentificationMethod === 'tag')
    return { tags: { contains: normalizeTag(settings.taskTag) } };
  const name = settings.taskPropertyName.trim();
  if (name === '') return {};
  return {
    [name]:
      settings.taskPropertyValue === '' ? { exists: true } : { eq: identificationPropertyValue(settings) },
  };
}

/**
 * Frontmatter as it must be written to stay a task (a write never drops identification): the
 * vault's match satisfied by typed creation's rule (the task tag first). A tag nested under the
 * task tag (`task/work`) already identifies the note, as in the TaskNotes plugin.
 */
export function withIdentification(
  frontmatter: Record<string, unknown>,
  settings: TaskNotesSettings,
): Record<string, unknown> {
  if (settings.taskIdentificationMethod === 'tag') {
    const lower = normalizeTag(settings.taskTag).toLowerCase();
    const tags = normalizeTags(frontmatter.tags);
    if (
      lower === '' ||
      tags.some((t) => t.toLowerCase() === lower || t.toLowerCase().startsWith(`${lower}/`))
    ) {
      return frontmatter;
    }
  }
  return satisfyMatch(frontmatter, identificationMatch(settings));
}
