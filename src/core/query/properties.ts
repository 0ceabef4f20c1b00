/**
 * The filterable properties (as in the TaskNotes plugin): for each, its kind, the operators
 * it accepts and how its value is read from a task. `user:<fieldId>` properties are built from
 * the configured user fields, with operators by field type (the same lists filter-options
 * advertises).
 */
import type { TaskInfo } from '../tasks/task-info.js';
import type { QueryContext } from './context.js';
import { parseLink } from './links.js';
import type { Operator, UserFieldDef, UserFieldType } from './types.js';

export type PropertyKind = 'text' | 'path' | 'enum' | 'list' | 'date' | 'boolean' | 'number' | 'presence';

/** How `contains` compares: substring over values, tag semantics, or project display names. */
export type ContainsMode = 'substring' | 'tags' | 'projects';

export interface PropertyDef {
  name: string;
  kind: PropertyKind;
  operators: readonly Operator[];
  containsMode: ContainsMode;
  get(task: TaskInfo, ctx: QueryContext): unknown;
}

const EMPTY: readonly Operator[] = ['is-empty', 'is-not-empty'];
const COMPARE: readonly Operator[] = [
  'is-greater-than',
  'is-less-than',
  'is-greater-than-or-equal',
  'is-less-than-or-equal',
];
const DATE_COMPARE: readonly Operator[] = ['is-before', 'is-after', 'is-on-or-before', 'is-on-or-after'];

export const KIND_OPERATORS: Readonly<Record<PropertyKind, readonly Operator[]>> = {
  text: ['is', 'is-not', 'contains', 'does-not-contain', ...EMPTY],
  path: ['contains', 'does-not-contain', ...EMPTY],
  enum: ['is', 'is-not', ...EMPTY],
  list: ['contains', 'does-not-contain', ...EMPTY],
  date: ['is', 'is-not', ...DATE_COMPARE, ...EMPTY],
  boolean: ['is-checked', 'is-not-checked'],
  number: ['is', 'is-not', ...COMPARE],
  presence: EMPTY,
};

/** User fields: operators per field type (as in the TaskNotes plugin). */
export const USER_FIELD_OPERATORS: Readonly<Record<UserFieldType, readonly Operator[]>> = {
  boolean: ['is-checked', 'is-not-checked'],
  number: ['is', 'is-not', ...COMPARE, ...EMPTY],
  date: ['is', 'is-not', ...DATE_COMPARE, ...EMPTY],
  list: ['contains', 'does-not-contain', ...EMPTY],
  text: ['is', 'is-not', 'contains', 'does-not-contain', ...EMPTY],
};

const USER_FIELD_KIND: Readonly<Record<UserFieldType, PropertyKind>> = {
  boolean: 'boolean',
  number: 'number',
  date: 'date',
  list: 'list',
  text: 'text',
};

type Getter = (task: TaskInfo, ctx: QueryContext) => unknown;

function def(
  name: string,
  kind: PropertyKind,
  get: Getter,
  containsMode: ContainsMode = 'substring',
): PropertyDef {
  return { name, kind, operators: KIND_OPERATORS[kind], containsMode, get };
}

// Getters read named properties (`t.status`), not `t[key]`: a keyed load on task objects of many
// shapes is the slowest access V8 has, and this runs for every task on every query.
export const BUILTIN_PROPERTIES: ReadonlyMap<string, PropertyDef> = new Map(
  [
    def('title', 'text', (t) => t.title),
    def('path', 'path', (t) => t.path),
    def('status', 'enum', (t) => t.status),
    def('priority', 'enum', (t) => t.priority),
    def('tags', 'list', (t) => t.tags, 'tags'),
    def('contexts', 'list', (t) => t.contexts),
    def('projects', 'list', (t) => t.projects, 'projects'),
    def('blockedBy', 'list', (task) => task.blockedBy?.map((d) => d.uid) ?? []),
    def('blocking', 'list', (task) => task.blocking ?? []),
    def('due', 'date', (t) => t.due),
    def('scheduled', 'date', (t) => t.scheduled),
    def('completedDate', 'date', (t) => t.completedDate),
    def('dateCreated', 'date', (t) => t.dateCreated),
    def('dateModified', 'date', (t) => t.dateModified),
    def('archived', 'boolean', (task) => task.archived === true),
    def('hasSubtasks', 'boolean', (task, ctx) => ctx.projectParents().has(task.path)),
    def('dependencies.isBlocked', 'boolean', (task) => task.isBlocked === true),
    def('dependencies.isBlocking', 'boolean', (task) => task.isBlocking === true),
    def('status.isCompleted', 'boolean', (task, ctx) => ctx.isEffectivelyCompleted(task)),
    // Taskdown's addition (what GET /api/tasks?overdue= filters on): see QueryContext.isOverdue.
    def('overdue', 'boolean', (task, ctx) => ctx.isOverdue(task)),
    def('timeEstimate', 'number', (t) => t.timeEstimate),
    def('recurrence', 'presence', (t) => t.recurrence),
  ].map((d) => [d.name, d]),
);

export const USER_PREFIX = 'user:';

/** The raw frontmatter value of a user field: top level first, then `customProperties`. */
export function rawUserValue(task: TaskInfo, field: UserFieldDef): unknown {
  const top = (task as Record<string, unknown>)[field.key];
  return top !== undefined ? top : task.customProperties?.[field.key];
}

/** List-field tokens: every element as text; a wikilink also contributes its display name. */
export function listTokens(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw];
  const tokens: string[] = [];
  for (const item of items) {
    if (item === undefined || item === null || typeof item === 'object') continue;
    const text = String(item).trim();
    if (text === '') continue;
    tokens.push(text);
    const link = parseLink(text);
    if (link.isLink) {
      const name = link.alias ?? link.target.slice(link.target.lastIndexOf('/') + 1);
      if (name !== '' && name !== text) tokens.push(name);
    }
  }
  return tokens;
}

/** The user field value converted by type (as in the TaskNotes plugin). */
export function userValue(raw: unknown, type: UserFieldType): unknown {
  if (raw === undefined || raw === null) return undefined;
  switch (type) {
    case 'boolean':
      return raw === true || (typeof raw === 'string' && raw.trim().toLowerCase() === 'true');
    case 'number':
      return typeof raw === 'number' ? raw : parseFloat(String(raw));
    case 'list':
      return listTokens(raw);
    case 'date':
    case 'text':
      return Array.isArray(raw) ? raw.map(String) : typeof raw === 'object' ? undefined : String(raw);
  }
}

export function userPropertyDef(name: string, field: UserFieldDef): PropertyDef {
  return {
    name,
    kind: USER_FIELD_KIND[field.type],
    operators: USER_FIELD_OPERATORS[field.type],
    containsMode: 'substring',
    get: (task) => userValue(rawUserValue(task, field), field.type),
  };
}

/** The definition for a property name, or undefined when it is neither built in nor a known user field. */
export function lookupProperty(name: string, ctx: Pick<QueryContext, 'userField'>): PropertyDef | undefined {
  const builtin = BUILTIN_PROPERTIES.get(name);
  if (builtin) return builtin;
  if (!name.startsWith(USER_PREFIX)) return undefined;
  const field = ctx.userField(name.slice(USER_PREFIX.length));
  return field ? userPropertyDef(name, field) : undefined;
}
