/**
 * Which notes are tasks (as in the TaskNotes plugin): by the task tag in frontmatter `tags`, or by a
 * configured property. Also the inverse: making sure a written note keeps its identification.
 */
import { normalizeTag, normalizeTags } from './field-mapping.js';
import type { TaskNotesSettings } from './tasknotes-settings.js';

export function isTaskFrontmatter(fm: Record<string, unknown>, settings: TaskNotesSettings): boolean {
  if (settings.taskIdentificationMethod === 'property') {
    const name = settings.taskPropertyName;
    const expected = settings.taskPropertyValue;
    if (name === '' || expected === '' || !Object.hasOwn(fm, name)) return false;
    const raw = fm[name];
    const values = Array.isArray(raw) ? raw : [raw];
    return values.some((v) => propertyMatches(v, expected));
  }
  const taskTag = normalizeTag(settings.taskTag).toLowerCase();
  if (taskTag === '') return false;
  return normalizeTags(fm.tags).some((tag) => {
    const t = tag.toLowerCase();
    return t === taskTag || t.startsWith(`${taskTag}/`);
  });
}

function propertyMatches(value: unknown, expected: string): boolean {
  if (typeof value === 'boolean') return expected.toLowerCase() === String(value);
  if (typeof value === 'string' || typeof value === 'number') return String(value) === expected;
  return false;
}

/** The value written for the identification property: "true"/"false" become YAML booleans. */
export function identificationPropertyValue(settings: TaskNotesSettings): string | boolean {
  const v = settings.taskPropertyValue;
  if (v.toLowerCase() === 'true') return true;
  if (v.toLowerCase() === 'false') return false;
  return v;
}

/**
 * Tags as they must be written: in tag mode the task tag first (unless a matching tag is already
 * present), then the given tags, de-duplicated (docs/api-decisions.md: a write never drops identification).
 */
export function tagsWithIdentification(tags: readonly string[], settings: TaskNotesSettings): string[] {
  const out = normalizeTags([...tags]);
  if (settings.taskIdentificationMethod !== 'tag') return out;
  const taskTag = normalizeTag(settings.taskTag);
  const lower = taskTag.toLowerCase();
  const present = out.some((t) => t.toLowerCase() === lower || t.toLowerCase().startsWith(`${lower}/`));
  return present ? out : [taskTag, ...out];
}

/**
 * In property mode, the identifier property value to write given the current raw value: kept
 * when it already matches, a two-element list when it holds a different scalar (as in the TaskNotes plugin).
 */
export function propertyIdentification(current: unknown, settings: TaskNotesSettings): unknown {
  const wanted = identificationPropertyValue(settings);
  if (current === undefined || current === null || current === '') return wanted;
  const values = Array.isArray(current) ? current : [current];
  if (values.some((v) => propertyMatches(v, settings.taskPropertyValue))) return current;
  return Array.isArray(current) ? [...current, wanted] : [current, wanted];
}
