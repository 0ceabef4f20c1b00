/**
 * Core validation of a task note (tasknotes-spec §6): required roles, a resolvable title, value
 * types, parseable dates, completion consistency, timestamp order, time entries, and fields no
 * role claims. Produces every issue with a severity rather than stopping at the first, so a
 * caller can report them all or reject on errors only (strict mode).
 */
import { getDatePart, hasTimeComponent } from '../dates/parts.js';
import { parseDateToUTC } from '../dates/parse.js';
import { timeEntriesIssue } from '../time/entry-rules.js';
import {
  isCompletedRoleStatus,
  resolveDisplayTitle,
  toRoleKeys,
  type RoleMapping,
  type TaskRole,
} from './role-mapping.js';

export type Severity = 'error' | 'warning' | 'info';

export interface ValidationIssue {
  code: string;
  severity: Severity;
  field?: string;
  message?: string;
}

export interface ValidationReport {
  hasErrors: boolean;
  issues: ValidationIssue[];
  errorCodes: string[];
  warningCodes: string[];
  infoCodes: string[];
  allCodes: string[];
}

export interface ValidationOptions {
  taskPath?: string;
  /** Strict schemas reject fields that no role claims; otherwise they are only reported. */
  rejectUnknownFields?: boolean;
}

const REQUIRED: ReadonlyArray<[TaskRole, string]> = [
  ['status', 'status'],
  ['dateCreated', 'date_created'],
  ['dateModified', 'date_modified'],
];
const STRING_ROLES: readonly TaskRole[] = [
  'status',
  'due',
  'scheduled',
  'completedDate',
  'dateCreated',
  'dateModified',
];
const LIST_ROLES: readonly TaskRole[] = ['tags', 'contexts', 'projects'];
const DATE_ROLES: readonly TaskRole[] = ['due', 'scheduled', 'completedDate', 'dateCreated', 'dateModified'];

const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function parses(value: string): boolean {
  try {
    parseDateToUTC(value);
    return true;
  } catch {
    return false;
  }
}

/** Is `modified` earlier than `created`? Instants when both carry a time, else calendar days. */
function modifiedBeforeCreated(created: string, modified: string): boolean {
  if (hasTimeComponent(created) && hasTimeComponent(modified)) {
    return parseDateToUTC(modified).getTime() < parseDateToUTC(created).getTime();
  }
  return getDatePart(modified) < getDatePart(created);
}

export function validateTask(
  frontmatter: Record<string, unknown>,
  mapping: RoleMapping,
  options: ValidationOptions = {},
): ValidationReport {
  const task = toRoleKeys(frontmatter, mapping);
  const fieldOf = (role: TaskRole): string => mapping.roleToField[role];
  const issues: ValidationIssue[] = [];
  const add = (code: string, severity: Severity, field: string, message: string): void => {
    issues.push({ code, severity, field, message });
  };

  for (const [role, name] of REQUIRED) {
    if (isBlank(task[role])) add('missing_required', 'error', fieldOf(role), `missing required ${name}`);
  }
  const title = resolveDisplayTitle(frontmatter, mapping, options.taskPath);
  if (title === undefined)
    add('unresolvable_title', 'error', fieldOf('title'), 'title could not be resolved');

  for (const role of STRING_ROLES) {
    if (!isBlank(task[role]) && typeof task[role] !== 'string') {
      add('invalid_type', 'error', fieldOf(role), `expected a string for ${role}`);
    }
  }
  for (const role of LIST_ROLES) {
    if (task[role] !== undefined && task[role] !== null && !Array.isArray(task[role])) {
      add('invalid_type', 'error', fieldOf(role), `expected a list for ${role}`);
    }
  }
  if (task.timeEntries !== undefined && task.timeEntries !== null) {
    const issue = timeEntriesIssue(task.timeEntries);
    if (issue) {
      const code = Array.isArray(task.timeEntries) ? issue : 'invalid_type';
      add(code, 'error', fieldOf('timeEntries'), issue);
    }
  }
  for (const role of DATE_ROLES) {
    const value = task[role];
    if (typeof value === 'string' && !isBlank(value) && !parses(value)) {
      add('invalid_date_value', 'error', fieldOf(role), `invalid date value for ${role}`);
    }
  }
  const status = typeof task.status === 'string' ? task.status : undefined;
  if (isCompletedRoleStatus(mapping, status) && isBlank(task.completedDate)) {
    add(
      'missing_required',
      'error',
      fieldOf('completedDate'),
      'completed_date is required for a completed status',
    );
  }
  const { dateCreated: created, dateModified: modified } = task;
  if (typeof created === 'string' && typeof modified === 'string' && parses(created) && parses(modified)) {
    if (modifiedBeforeCreated(created, modified)) {
      add(
        'date_modified_before_created',
        'error',
        fieldOf('dateModified'),
        'date_modified must be >= date_created',
      );
    }
  }
  const known = new Set<string>([...Object.values(mapping.roleToField), ...Object.keys(mapping.roleToField)]);
  for (const key of Object.keys(frontmatter)) {
    if (known.has(key)) continue;
    add(
      'unknown_field',
      options.rejectUnknownFields ? 'error' : 'info',
      key,
      'field is not mapped to a known semantic role',
    );
  }

  const codesOf = (severity: Severity): string[] =>
    issues.filter((i) => i.severity === severity).map((i) => i.code);
  const errorCodes = codesOf('error');
  return {
    hasErrors: errorCodes.length > 0,
    issues,
    errorCodes,
    warningCodes: codesOf('warning'),
    infoCodes: codesOf('info'),
    allCodes: [...new Set(issues.map((i) => i.code))],
  };
}
