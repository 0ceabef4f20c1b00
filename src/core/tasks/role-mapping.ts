/**
 * Semantic-role mapping of tasknotes-spec §2 (the mdbase `x-tasknotes` binding): a collection's
 * type definition names its fields freely and tags some with `tn_role`; every role without a
 * tagged field falls back to a field named like the role. The role vocabulary is the TaskNotes
 * field-mapping vocabulary (field-mapping.ts) plus the fixed `tags` key, so a role mapping can
 * be read wherever a plugin mapping is.
 */
import type { FieldMapping } from './field-mapping.js';
import { isRecord } from '../is-record.js';

export type TaskRole = keyof FieldMapping | 'tags';

/** The roles the spec defines (§2.2), in spec order. */
export const SPEC_ROLES: readonly TaskRole[] = [
  'title',
  'status',
  'priority',
  'due',
  'scheduled',
  'completedDate',
  'tags',
  'contexts',
  'projects',
  'attachments',
  'timeEstimate',
  'dateCreated',
  'dateModified',
  'recurrence',
  'recurrenceAnchor',
  'completeInstances',
  'skippedInstances',
  'timeEntries',
];

const ROLE_SET = new Set<string>(SPEC_ROLES);

/** Spec default when a status field declares nothing about completion (§2.4). */
export const DEFAULT_COMPLETED_STATUSES: readonly string[] = ['done', 'cancelled'];

export interface RoleMapping {
  roleToField: Record<TaskRole, string>;
  fieldToRole: Record<string, TaskRole>;
  /** Frontmatter key shown as the task's name. */
  displayNameKey: string;
  /** Status values that count as completed, in preference order. */
  completedStatuses: string[];
  /** The configured status values, when the collection declares them (else any value). */
  statusValues?: string[];
  /** The configured priority values, when the collection declares them (else any value). */
  priorityValues?: string[];
}

export function isTaskRole(value: unknown): value is TaskRole {
  return typeof value === 'string' && ROLE_SET.has(value);
}

/** Every role mapped to the field of the same name. */
export function defaultRoleMapping(): RoleMapping {
  return buildRoleMapping({});
}

/**
 * Completed statuses of the status field: explicit `tn_completed_values`, else the declared
 * values that read as finished (done / complete / cancel), else the spec default.
 */
function completedStatusesOf(statusField: unknown): string[] {
  if (!isRecord(statusField)) return [...DEFAULT_COMPLETED_STATUSES];
  const explicit = (Array.isArray(statusField.tn_completed_values) ? statusField.tn_completed_values : [])
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (explicit.length > 0) return explicit;
  const inferred = (Array.isArray(statusField.values) ? statusField.values : [])
    .filter((v): v is string => typeof v === 'string')
    .filter((v) => /done|complete|cancel/i.test(v));
  return inferred.length > 0 ? inferred : [...DEFAULT_COMPLETED_STATUSES];
}

/**
 * Builds the mapping from a type definition's `fields`. The first field tagged with a role wins
 * (a second tag for the same role is ignored); `displayNameKey` defaults to the title field.
 */
export function buildRoleMapping(fields: Record<string, unknown>, displayNameKey?: string): RoleMapping {
  const roleToField: Partial<Record<TaskRole, string>> = {};
  const fieldToRole: Record<string, TaskRole> = {};
  for (const [fieldName, definition] of Object.entries(fields)) {
    const role = isRecord(definition) ? definition.tn_role : undefined;
    if (!isTaskRole(role) || roleToField[role] !== undefined) continue;
    roleToField[role] = fieldName;
    fieldToRole[fieldName] = role;
  }
  for (const role of SPEC_ROLES) {
    if (roleToField[role] !== undefined) continue;
    roleToField[role] = role;
    // A same-named field claims the role only if no other field already answers to that name.
    fieldToRole[role] ??= role;
  }
  const complete = roleToField as Record<TaskRole, string>;
  const mapping: RoleMapping = {
    roleToField: complete,
    fieldToRole,
    displayNameKey: displayNameKey && displayNameKey.trim() !== '' ? displayNameKey : complete.title,
    completedStatuses: completedStatusesOf(fields[complete.status]),
  };
  const statusValues = declaredValues(fields[complete.status]);
  if (statusValues) mapping.statusValues = statusValues;
  const priorityValues = declaredValues(fields[complete.priority]);
  if (priorityValues) mapping.priorityValues = priorityValues;
  return mapping;
}

/** The `values` an enum field definition declares, or undefined. */
function declaredValues(field: unknown): string[] | undefined {
  if (!isRecord(field) || !Array.isArray(field.values)) return undefined;
  const values = field.values.filter((v): v is string => typeof v === 'string');
  return values.length > 0 ? values : undefined;
}

/**
 * The role mapping of a TaskNotes vault: every role in the plugin's field mapping (tags under the
 * fixed key `tags`), the title key as display name, and the configured statuses and priorities.
 */
export function roleMappingOf(
  fieldMapping: FieldMapping,
  statuses: ReadonlyArray<{ value: string; isCompleted?: boolean }>,
  priorities: ReadonlyArray<{ value: string }>,
): RoleMapping {
  const roleToField = { ...fieldMapping, tags: 'tags' } as Record<TaskRole, string>;
  const fieldToRole: Record<string, TaskRole> = {};
  for (const [role, field] of Object.entries(roleToField)) fieldToRole[field] ??= role as TaskRole;
  return {
    roleToField,
    fieldToRole,
    displayNameKey: fieldMapping.title,
    completedStatuses: statuses.filter((s) => s.isCompleted === true).map((s) => s.value),
    statusValues: statuses.map((s) => s.value),
    priorityValues: priorities.map((p) => p.value),
  };
}

export function isCompletedRoleStatus(mapping: RoleMapping, status: string | undefined): boolean {
  return status !== undefined && mapping.completedStatuses.includes(status);
}

/** The status to write when completing a task: the first completed value. */
export function defaultCompletedStatus(mapping: RoleMapping): string {
  return mapping.completedStatuses[0] ?? 'done';
}

/** Frontmatter keyed by field names → keyed by role (unmapped keys pass through unchanged). */
export function toRoleKeys(
  frontmatter: Record<string, unknown>,
  mapping: RoleMapping,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(frontmatter)) out[mapping.fieldToRole[key] ?? key] = value;
  return out;
}

/** Role-keyed data → keyed by field names (non-role keys pass through unchanged). */
export function toFieldKeys(
  roleData: Record<string, unknown>,
  mapping: RoleMapping,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(roleData))
    out[isTaskRole(key) ? mapping.roleToField[key] : key] = value;
  return out;
}

/**
 * The task's display title (§2.5): the display-name field, else `title`, else the file name
 * without `.md`; undefined when none is a non-blank string.
 */
export function resolveDisplayTitle(
  frontmatter: Record<string, unknown>,
  mapping: RoleMapping,
  taskPath?: string,
): string | undefined {
  for (const key of new Set([mapping.displayNameKey, 'title'])) {
    const value = frontmatter[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  const base = (taskPath ?? '').split(/[\\/]/).pop() ?? '';
  const fromPath = base.replace(/\.md$/i, '').trim();
  return fromPath === '' ? undefined : fromPath;
}
