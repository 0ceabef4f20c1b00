/**
 * FilterQuery vocabulary (as in the TaskNotes plugin): the node shapes a client sends to
 * `POST /api/tasks/query`, and the settings the engine needs to interpret them. The engine is a
 * pure module over `TaskInfo[]`; it never reads the vault itself.
 */
import type { TaskInfo } from '../tasks/task-info.js';

export const OPERATORS = [
  'is',
  'is-not',
  'contains',
  'does-not-contain',
  'is-before',
  'is-after',
  'is-on-or-before',
  'is-on-or-after',
  'is-empty',
  'is-not-empty',
  'is-checked',
  'is-not-checked',
  'is-greater-than',
  'is-less-than',
  'is-greater-than-or-equal',
  'is-less-than-or-equal',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** Operators that look only at the task (a condition value, if sent, is ignored). */
export const VALUELESS_OPERATORS: ReadonlySet<Operator> = new Set([
  'is-empty',
  'is-not-empty',
  'is-checked',
  'is-not-checked',
]);

export type ConditionValue = string | number | boolean | null | Array<string | number>;

export interface FilterCondition {
  type: 'condition';
  /** A client's label for the node; optional (query builders send one, hand-written queries often do not). */
  id?: string;
  property: string;
  operator: Operator;
  value?: ConditionValue;
}

export interface FilterGroup {
  type: 'group';
  id?: string;
  conjunction: 'and' | 'or';
  children: FilterNode[];
}

export type FilterNode = FilterGroup | FilterCondition;

export const BUILTIN_SORT_KEYS = [
  'due',
  'scheduled',
  'priority',
  'status',
  'title',
  'dateCreated',
  'dateModified',
  'completedDate',
  'tags',
  // Taskdown's addition: the vault path, i.e. the order of the task index and of GET /api/tasks.
  'path',
] as const;

export const BUILTIN_GROUP_KEYS = [
  'none',
  'status',
  'priority',
  'context',
  'project',
  'tags',
  'due',
  'scheduled',
  'completedDate',
] as const;

/** Sort and group options live on the root node only. */
export interface QueryOptions {
  /** A built-in sort key or `user:<fieldId>`. Default `due`. */
  sortKey: string;
  sortDirection: 'asc' | 'desc';
  /** A built-in group key or `user:<fieldId>`. Default `none`. */
  groupKey: string;
}

export type FilterQuery = FilterNode &
  Partial<QueryOptions> & { subgroupKey?: string; limit?: number; offset?: number };

/** Which part of the sorted, grouped result a query returns (`filtered` still counts all of it). */
export interface QueryPage {
  offset: number;
  /** Undefined: everything from `offset` on. */
  limit?: number;
}

/** A validated query: the tree plus its options with defaults applied. */
export interface ParsedQuery {
  root: FilterNode;
  options: QueryOptions;
  page: QueryPage;
}

export interface StatusDef {
  value: string;
  label?: string;
  order?: number;
  isCompleted?: boolean;
}

export interface PriorityDef {
  value: string;
  label?: string;
  weight?: number;
}

export type UserFieldType = 'text' | 'number' | 'date' | 'boolean' | 'list';

export interface UserFieldDef {
  id?: string;
  key: string;
  displayName?: string;
  type: UserFieldType;
}

/** The parts of the effective TaskNotes settings that queries depend on. */
export interface QuerySettings {
  statuses: readonly StatusDef[];
  priorities: readonly PriorityDef[];
  userFields: readonly UserFieldDef[];
  /** Completed tasks are never grouped as overdue (TaskNotes setting, default true). */
  hideCompletedFromOverdue?: boolean;
}

/**
 * Everything a query run needs besides the query: the tasks, the settings and "now". Link
 * resolution is injected so the engine can use the vault's own resolver when there is one.
 */
export interface QueryEnv {
  tasks: readonly TaskInfo[];
  settings: QuerySettings;
  /** Epoch ms; "today" is the local calendar day of this instant. */
  now: number;
  /** Vault path of the note a link (`[[Name]]`, `[t](p.md)` or a plain path) points at. */
  resolveLink?: (link: string, fromPath: string) => string | undefined;
}
