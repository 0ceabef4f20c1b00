/**
 * Creating a task through a typed collection (tasknotes-spec §5.3 "create compatibility"): the
 * caller gives role-keyed frontmatter; the type definition supplies field defaults, creation and
 * modification timestamps, and the values its `match.where` needs for the new note to be
 * recognised as a task; the path comes from the caller or from the type's `path_pattern`.
 */
import { invalid } from '../errors.js';
import { pathPatternValues, renderPathPattern } from './path-pattern.js';
import { toFieldKeys, type RoleMapping } from './role-mapping.js';
import { isRecord } from '../is-record.js';

export interface TaskTypeDefinition {
  path_pattern?: string;
  match?: { where?: Record<string, unknown> };
  fields?: Record<string, { type?: string; default?: unknown }>;
}

/** Where the created note goes: the collection that stores it (a vault, or a test double). */
export interface TaskCollection {
  /** Stores the note; rejects with an error whose message is the failure code. */
  create(note: { path: string; frontmatter: Record<string, unknown>; body?: string }): Promise<void>;
}

const hasValue = (value: unknown): boolean =>
  value !== undefined &&
  value !== null &&
  !(typeof value === 'string' && value.trim() === '') &&
  !(Array.isArray(value) && value.length === 0);

/** Sets what a `match.where` condition requires of a new note, without overriding given values. */
function satisfyCondition(fm: Record<string, unknown>, field: string, condition: unknown): void {
  if (condition === null || condition === undefined) return;
  if (!isRecord(condition)) {
    if (!hasValue(fm[field])) fm[field] = condition;
    return;
  }
  if ('eq' in condition) {
    if (!hasValue(fm[field])) fm[field] = condition.eq;
    return;
  }
  if ('contains' in condition) {
    const wanted = condition.contains;
    const current = fm[field];
    if (Array.isArray(current)) {
      // First, as TaskNotes writes its task tag.
      if (!current.some((v) => String(v) === String(wanted))) fm[field] = [wanted, ...current];
    } else if (typeof current === 'string' && current.trim() !== '') {
      if (!current.includes(String(wanted))) fm[field] = `${current} ${String(wanted)}`;
    } else {
      fm[field] = [wanted];
    }
    return;
  }
  if (condition.exists === true && !hasValue(fm[field])) fm[field] = true;
}

/** The field-keyed frontmatter a new task of this type is written with. */
export function applyTypeDefaults(
  roleFrontmatter: Record<string, unknown>,
  type: TaskTypeDefinition,
  mapping: RoleMapping,
  now: Date,
): Record<string, unknown> {
  const fm = toFieldKeys(roleFrontmatter, mapping);
  const fields = type.fields ?? {};
  for (const [name, definition] of Object.entries(fields)) {
    if (definition?.default !== undefined && !hasValue(fm[name])) fm[name] = definition.default;
  }
  for (const role of ['dateCreated', 'dateModified'] as const) {
    const name = mapping.roleToField[role];
    if (fields[name] && !hasValue(fm[name])) fm[name] = now.toISOString();
  }
  return satisfyMatch(fm, type.match?.where ?? {});
}

/**
 * Frontmatter (field-keyed) with what a `match.where` requires of a task added, given values
 * kept: the note is then recognised as a task of the type. Returns a copy.
 */
export function satisfyMatch(
  frontmatter: Record<string, unknown>,
  where: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const fm = { ...frontmatter };
  for (const [field, condition] of Object.entries(where)) satisfyCondition(fm, field, condition);
  return fm;
}

/** The path for a new task: the type's pattern rendered, or INVALID `path_required` naming what is missing. */
export function typedTaskPath(
  type: TaskTypeDefinition,
  frontmatter: Record<string, unknown>,
  mapping: RoleMapping,
  now: Date,
): string {
  const pattern = type.path_pattern?.trim();
  if (!pattern) throw invalid('path_required: the task type has no path_pattern and no path was given');
  const rendered = renderPathPattern(pattern, pathPatternValues(frontmatter, mapping, now));
  if ('path' in rendered) return rendered.path;
  const detail =
    rendered.missing.length > 0
      ? `missing template values for ${rendered.missing.join(', ')}`
      : 'it leaves the collection';
  throw invalid(`path_required: cannot resolve path_pattern "${pattern}": ${detail}.`);
}

/** Creates the note and returns where it went and what was written. */
export async function createTypedTask(
  collection: TaskCollection,
  request: { type: TaskTypeDefinition; frontmatter: Record<string, unknown>; body?: string; path?: string },
  mapping: RoleMapping,
  now: Date,
): Promise<{ path: string; frontmatter: Record<string, unknown> }> {
  const frontmatter = applyTypeDefaults(request.frontmatter, request.type, mapping, now);
  const path = request.path ?? typedTaskPath(request.type, frontmatter, mapping, now);
  await collection.create({ path, frontmatter, body: request.body });
  return { path, frontmatter };
}
