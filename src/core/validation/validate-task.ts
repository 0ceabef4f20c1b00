/**
 * Validation of a task note (tasknotes-spec §6): required roles, a resolvable title, value types
 * and configured enums, parseable dates, recurrence rules and instance lists, completion
 * consistency, timestamp order, a non-negative estimate, time entries, dependencies, reminders,
 * links, materialized occurrences and attachments. Every issue is reported with a severity rather
 * than stopping at the first, so a caller can list them all (`taskdown check`) or refuse a write
 * on errors (strict mode, write-check.ts). Field names in issues are frontmatter keys.
 */
import { canonicalDependency } from '../dependencies/normalize.js';
import { dependencyEntryIssue, normalizeDependencyUid } from '../dependencies/entry.js';
import { DEFAULT_DEPENDENCY_POLICY } from '../dependencies/blocking.js';
import { isIsoDuration } from '../dates/duration.js';
import { parseDateToUTC } from '../dates/parse.js';
import { getDatePart, hasTimeComponent } from '../dates/parts.js';
import type { LinkOutcome } from '../links/link-index.js';
import { isRecord } from '../is-record.js';
import { parseLinkValue } from '../links/parse.js';
import { resolveLink } from '../links/resolve.js';
import { hasDtstart, parseRecurrence, RecurrenceSyntaxError } from '../recurrence/rule.js';
import { reminderEntryIssue } from '../reminders/entry.js';
import {
  isCompletedRoleStatus,
  resolveDisplayTitle,
  toRoleKeys,
  type RoleMapping,
  type TaskRole,
} from '../tasks/role-mapping.js';
import { RECURRENCE_ANCHORS, MATERIALIZATION_POLICIES, NEXT_TRIGGERS } from '../tasks/task-fields.js';
import { timeEntriesIssue } from '../time/entry-rules.js';

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
  /** Report fields no role claims at all (default true; closure is then info or error). */
  reportUnknownFields?: boolean;
  /**
   * Resolves a `blockedBy` uid or `recurrence_parent` written in this note within the task scope,
   * for the self, duplicate and unresolved-target checks. Without it only the written form is
   * checked.
   */
  resolveTask?: (value: string) => LinkOutcome;
}

const REQUIRED: ReadonlyArray<[TaskRole, string]> = [
  ['status', 'status'],
  ['dateCreated', 'date_created'],
  ['dateModified', 'date_modified'],
];
const STRING_ROLES: readonly TaskRole[] = [
  'status',
  'priority',
  'due',
  'scheduled',
  'completedDate',
  'dateCreated',
  'dateModified',
  'recurrence',
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

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: unknown): boolean => typeof value === 'string' && DAY.test(value) && parses(value);

/** Is `modified` earlier than `created`? Instants when both carry a time, else calendar days. */
function modifiedBeforeCreated(created: string, modified: string): boolean {
  if (hasTimeComponent(created) && hasTimeComponent(modified)) {
    return parseDateToUTC(modified).getTime() < parseDateToUTC(created).getTime();
  }
  return getDatePart(modified) < getDatePart(created);
}

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);

export function validateTask(
  frontmatter: Record<string, unknown>,
  mapping: RoleMapping,
  options: ValidationOptions = {},
): ValidationReport {
  const task = toRoleKeys(frontmatter, mapping);
  const fieldOf = (role: TaskRole): string => mapping.roleToField[role] ?? role;
  const valueOf = (role: TaskRole): unknown => frontmatter[fieldOf(role)];
  const has = (role: TaskRole): boolean => !isBlank(valueOf(role));
  const issues: ValidationIssue[] = [];
  const add = (code: string, severity: Severity, field: string, message: string): void => {
    issues.push({ code, severity, field, message });
  };

  // 1, 1b: required roles and the title.
  for (const [role, name] of REQUIRED) {
    if (isBlank(task[role])) add('missing_required', 'error', fieldOf(role), `missing required ${name}`);
  }
  if (resolveDisplayTitle(frontmatter, mapping, options.taskPath) === undefined) {
    add('unresolvable_title', 'error', fieldOf('title'), 'title could not be resolved');
  }

  // 2: value types and configured values.
  for (const role of STRING_ROLES) {
    if (!isBlank(task[role]) && typeof task[role] !== 'string') {
      add('invalid_type', 'error', fieldOf(role), `expected text, got ${show(task[role])}`);
    }
  }
  for (const role of LIST_ROLES) {
    if (task[role] !== undefined && task[role] !== null && !Array.isArray(task[role])) {
      add('invalid_type', 'error', fieldOf(role), `expected a list, got ${show(task[role])}`);
    }
  }
  const enumCheck = (role: TaskRole, allowed: readonly string[] | undefined, code = 'invalid_enum_value') => {
    const value = valueOf(role);
    if (allowed === undefined || allowed.length === 0 || typeof value !== 'string' || isBlank(value)) return;
    if (!allowed.includes(value)) {
      add(code, 'error', fieldOf(role), `${show(value)} is not one of ${allowed.join(', ')}`);
    }
  };
  enumCheck('status', mapping.statusValues);
  enumCheck('priority', mapping.priorityValues);

  // 3: dates.
  for (const role of DATE_ROLES) {
    const value = task[role];
    if (typeof value === 'string' && !isBlank(value) && !parses(value)) {
      add(
        'invalid_date_value',
        'error',
        fieldOf(role),
        `${show(value)} is not a valid date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:mm[:ss][zone])`,
      );
    }
  }

  // 1a: completion needs its date (not for recurring tasks, which complete per instance).
  const status = typeof task.status === 'string' ? task.status : undefined;
  if (isCompletedRoleStatus(mapping, status) && isBlank(task.completedDate) && !has('recurrence')) {
    add('missing_required', 'error', fieldOf('completedDate'), 'required for a completed status');
  }

  // 6: timestamps in order.
  const { dateCreated: created, dateModified: modified } = task;
  if (typeof created === 'string' && typeof modified === 'string' && parses(created) && parses(modified)) {
    if (modifiedBeforeCreated(created, modified)) {
      add(
        'date_modified_before_created',
        'error',
        fieldOf('dateModified'),
        'must not be before date_created',
      );
    }
  }

  // 7: estimate.
  const estimate = valueOf('timeEstimate');
  if (estimate !== undefined && estimate !== null) {
    if (typeof estimate !== 'number' || !Number.isFinite(estimate)) {
      add(
        'invalid_type',
        'error',
        fieldOf('timeEstimate'),
        `expected minutes as a number, got ${show(estimate)}`,
      );
    } else if (estimate < 0) {
      add('invalid_time_estimate', 'error', fieldOf('timeEstimate'), `must not be negative, got ${estimate}`);
    }
  }

  // 4, 5: recurrence and instance lists.
  checkRecurrence(task, fieldOf, add);

  // 8: time entries.
  if (task.timeEntries !== undefined && task.timeEntries !== null) {
    const issue = timeEntriesIssue(task.timeEntries);
    if (issue) {
      const code = Array.isArray(task.timeEntries) ? issue.code : 'invalid_type';
      add(code, 'error', fieldOf('timeEntries'), issue.message);
    }
  }

  // 9, 10, 11, 12, 16, 18, 19.
  checkDependencies(valueOf('blockedBy'), fieldOf('blockedBy'), options, add);
  checkReminders(valueOf('reminders'), fieldOf('reminders'), (base) => has(base), add);
  checkProjects(valueOf('projects'), fieldOf('projects'), options.taskPath ?? '', add);
  checkOccurrence(frontmatter, fieldOf, options, add);
  checkAttachments(valueOf('attachments'), fieldOf('attachments'), add);

  if (options.reportUnknownFields !== false) {
    const known = new Set<string>([
      ...Object.values(mapping.roleToField),
      ...Object.keys(mapping.roleToField),
    ]);
    for (const key of Object.keys(frontmatter)) {
      if (known.has(key)) continue;
      add(
        'unknown_field',
        options.rejectUnknownFields ? 'error' : 'info',
        key,
        'field is not mapped to a known semantic role',
      );
    }
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

type Add = (code: string, severity: Severity, field: string, message: string) => void;

/** Why a recurrence string cannot be evaluated, or undefined when it can. */
function recurrenceProblem(rule: string): string | undefined {
  try {
    parseRecurrence(rule);
    return undefined;
  } catch (error) {
    if (error instanceof RecurrenceSyntaxError) return error.message;
    throw error;
  }
}

function checkRecurrence(task: Record<string, unknown>, fieldOf: (role: TaskRole) => string, add: Add): void {
  const rule = task.recurrence;
  if (typeof rule === 'string' && rule.trim() !== '') {
    const problem = recurrenceProblem(rule);
    if (problem !== undefined) {
      add(
        'invalid_recurrence_rule',
        'error',
        fieldOf('recurrence'),
        `${show(rule)} is not a valid rule: ${problem}`,
      );
    } else if (!hasDtstart(rule) && isBlank(task.scheduled) && isBlank(task.dateCreated)) {
      add(
        'missing_recurrence_seed',
        'error',
        fieldOf('recurrence'),
        'no DTSTART, scheduled date or date_created',
      );
    }
  }
  const anchor = task.recurrenceAnchor;
  if (!isBlank(anchor) && !(RECURRENCE_ANCHORS as readonly unknown[]).includes(anchor)) {
    add(
      'invalid_recurrence_anchor',
      'error',
      fieldOf('recurrenceAnchor'),
      `must be ${RECURRENCE_ANCHORS.join(' or ')}, got ${show(anchor)}`,
    );
  }
  const days = (role: 'completeInstances' | 'skippedInstances'): string[] => {
    const list = task[role];
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) {
      add('invalid_type', 'error', fieldOf(role), `expected a list of dates, got ${show(list)}`);
      return [];
    }
    const bad = list.filter((d) => !isDay(d));
    if (bad.length > 0) {
      add('invalid_date_value', 'error', fieldOf(role), `not YYYY-MM-DD dates: ${bad.map(show).join(', ')}`);
    }
    return list.filter((d): d is string => typeof d === 'string');
  };
  const complete = new Set(days('completeInstances'));
  const both = days('skippedInstances').filter((d) => complete.has(d));
  if (both.length > 0) {
    add(
      'instance_state_overlap',
      'error',
      fieldOf('skippedInstances'),
      `completed and skipped at once: ${[...new Set(both)].join(', ')}`,
    );
  }
}

function checkDependencies(raw: unknown, field: string, options: ValidationOptions, add: Add): void {
  if (raw === undefined || raw === null) return;
  if (!Array.isArray(raw)) {
    add('invalid_type', 'error', field, `expected a list of dependencies, got ${show(raw)}`);
    return;
  }
  const own = options.taskPath === undefined ? null : normalizeDependencyUid(options.taskPath);
  const ownName = own?.slice(own.lastIndexOf('/') + 1) ?? null;
  const seen = new Set<string>();
  raw.forEach((item, index) => {
    const at = `${field}[${index}]`;
    // A bare string, or an entry without a reltype, is the legacy form: read with the default
    // reltype (a warning for the entry; the next write of the list adds it).
    const legacy = typeof item === 'string' || (isRecord(item) && isBlank(item.reltype));
    const entry = legacy ? canonicalDependency(item) : item;
    if (legacy && entry !== null) {
      add('invalid_dependency_reltype', 'warning', at, 'no reltype: read as FINISHTOSTART');
    }
    const issue = dependencyEntryIssue(entry);
    if (issue) {
      add(issue, 'error', at, dependencyMessage(issue, item));
      return;
    }
    const uid = (entry as { uid: string }).uid;
    const outcome = options.resolveTask?.(uid);
    const problem = outcome && 'issue' in outcome ? outcome.issue : undefined;
    if (problem === 'invalid_link_format' || problem === 'path_traversal') {
      add(problem, 'error', at, `${show(uid)}: ${problem.replace(/_/g, ' ')}`);
      return;
    }
    const resolved = outcome && 'path' in outcome ? outcome.path : undefined;
    const key = resolved ?? normalizeDependencyUid(uid) ?? uid;
    const self =
      resolved !== undefined
        ? resolved === options.taskPath
        : key === own || (key === ownName && !key.includes('/'));
    if (self) add('self_dependency', 'error', at, 'a task cannot depend on itself');
    else if (seen.has(key)) add('duplicate_dependency_uid', 'error', at, `${show(uid)} is listed twice`);
    else if (problem === 'ambiguous_link') {
      add('ambiguous_link', 'warning', at, `${show(uid)} names several tasks; write its path to say which`);
    } else if (problem !== undefined) {
      add(
        'unresolved_dependency_target',
        DEFAULT_DEPENDENCY_POLICY.severity,
        at,
        `${show(uid)} names no task (a dependency on a missing task counts as blocking)`,
      );
    }
    seen.add(key);
  });
}

function dependencyMessage(code: string, entry: unknown): string {
  switch (code) {
    case 'invalid_dependency_reltype':
      return 'reltype must be one of FINISHTOSTART, STARTTOSTART, FINISHTOFINISH, STARTTOFINISH';
    case 'invalid_dependency_gap':
      return 'gap must be an ISO 8601 duration';
    default:
      return `${show(entry)} is not a dependency ({uid, reltype, gap?})`;
  }
}

function checkReminders(raw: unknown, field: string, hasBase: (role: TaskRole) => boolean, add: Add): void {
  if (raw === undefined || raw === null) return;
  if (!Array.isArray(raw)) {
    add('invalid_type', 'error', field, `expected a list of reminders, got ${show(raw)}`);
    return;
  }
  const ids = new Set<string>();
  raw.forEach((entry, index) => {
    const at = `${field}[${index}]`;
    const issue = reminderEntryIssue(entry);
    if (issue) {
      add(issue, 'error', at, `${show(entry)}: ${issue.replace(/_/g, ' ')}`);
      return;
    }
    const { id, type, relatedTo } = entry as { id: string; type: string; relatedTo?: string };
    if (ids.has(id)) add('duplicate_reminder_id', 'error', at, `id ${show(id)} is used twice`);
    ids.add(id);
    if (type === 'relative' && (relatedTo === 'due' || relatedTo === 'scheduled') && !hasBase(relatedTo)) {
      add(
        'unresolvable_reminder_base',
        'error',
        at,
        `relative to ${relatedTo}, which the task does not have`,
      );
    }
  });
}

function checkProjects(raw: unknown, field: string, taskPath: string, add: Add): void {
  if (!Array.isArray(raw)) return;
  raw.forEach((value, index) => {
    if (typeof value !== 'string' || value.trim() === '') return;
    const at = `${field}[${index}]`;
    const link = parseLinkValue(value);
    if (link === null) {
      add('invalid_link_format', 'error', at, `${show(value)} is not a link`);
      return;
    }
    if (link.format === 'wikilink' && !link.is_relative && !link.target.includes('/')) return;
    try {
      resolveLink(link, { sourcePath: taskPath, candidates: [] });
    } catch (error) {
      if (String((error as Error).message).startsWith('path_traversal')) {
        add('path_traversal', 'error', at, `${show(value)} leads out of the vault`);
      }
    }
  });
}

function checkOccurrence(
  frontmatter: Record<string, unknown>,
  fieldOf: (role: TaskRole) => string,
  options: ValidationOptions,
  add: Add,
): void {
  const parent = frontmatter[fieldOf('recurrenceParent')];
  const day = frontmatter[fieldOf('occurrenceDate')];
  if (!isBlank(parent) || !isBlank(day)) {
    if (isBlank(parent)) {
      add(
        'missing_recurrence_parent',
        'error',
        fieldOf('recurrenceParent'),
        'an occurrence note names its parent',
      );
    } else if (typeof parent !== 'string' || parseLinkValue(parent) === null) {
      add('invalid_link_format', 'error', fieldOf('recurrenceParent'), `${show(parent)} is not a link`);
    } else {
      const outcome = options.resolveTask?.(parent);
      if (outcome && 'issue' in outcome) {
        add(
          'invalid_recurrence_parent',
          'warning',
          fieldOf('recurrenceParent'),
          `${show(parent)} names no task`,
        );
      }
    }
    if (isBlank(day)) {
      add('missing_occurrence_date', 'error', fieldOf('occurrenceDate'), 'an occurrence note names its day');
    } else if (!isDay(day)) {
      add('invalid_date_value', 'error', fieldOf('occurrenceDate'), `${show(day)} is not a YYYY-MM-DD date`);
    }
  }
  const policies: Array<[TaskRole, readonly string[]]> = [
    ['occurrenceMaterialization', MATERIALIZATION_POLICIES],
    ['occurrenceNextTrigger', NEXT_TRIGGERS],
  ];
  for (const [role, allowed] of policies) {
    const value = frontmatter[fieldOf(role)];
    if (!isBlank(value) && !(allowed as readonly unknown[]).includes(value)) {
      add('invalid_enum_value', 'error', fieldOf(role), `${show(value)} is not one of ${allowed.join(', ')}`);
    }
  }
  for (const role of ['occurrencePastHorizon', 'occurrenceFutureHorizon'] as const) {
    const value = frontmatter[fieldOf(role)];
    if (!isBlank(value) && !isIsoDuration(value)) {
      add('invalid_duration_value', 'error', fieldOf(role), `${show(value)} is not an ISO 8601 duration`);
    }
  }
}

function checkAttachments(raw: unknown, field: string, add: Add): void {
  if (raw === undefined || raw === null) return;
  if (!Array.isArray(raw)) {
    add('invalid_type', 'error', field, `expected a list of file links, got ${show(raw)}`);
    return;
  }
  const seen = new Set<string>();
  raw.forEach((value, index) => {
    const at = `${field}[${index}]`;
    const link = typeof value === 'string' ? parseLinkValue(value) : null;
    const target = link?.target.replace(/\\/g, '/').replace(/^\.\//, '') ?? '';
    if (link === null || target === '' || target.endsWith('/') || !/\.[A-Za-z0-9]+$/.test(target)) {
      add('invalid_attachment_reference', 'error', at, `${show(value)} is not a file link with an extension`);
      return;
    }
    const key = target.toLowerCase();
    if (seen.has(key)) add('duplicate_attachment_reference', 'error', at, `${show(value)} is listed twice`);
    seen.add(key);
  });
}

/** The issues of a report that are errors. */
export const errorsOf = (report: ValidationReport): ValidationIssue[] =>
  report.issues.filter((issue) => issue.severity === 'error');
