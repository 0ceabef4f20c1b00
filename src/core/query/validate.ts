/**
 * FilterQuery validation. The reference checks the tree up front but answers an invalid query
 * with an empty 200; Taskdown makes (docs/api-decisions.md) every failure a 400 that says what is wrong and where
 * (`root.children[1]`). Checked: node shape, conjunctions, known properties (user fields
 * included), operators allowed for the property's type, condition values, sort and group keys,
 * paging (`limit`, `offset`), and that those options sit on the root only. Node ids are optional
 * labels (the reference requires one on every node; hand-written queries and the `tn` CLI's
 * nested groups have none), but must be strings when present.
 *
 * Kept from the reference: a condition whose property is `""`, or whose operator needs a value
 * but got `null`/`""`/nothing, is an unfinished row of a query builder; it is accepted here and
 * ignored during evaluation.
 */
import { invalid, type DomainError } from '../errors.js';
import { resolveConditionDate } from './dates.js';
import { lookupProperty, USER_PREFIX, type PropertyDef } from './properties.js';
import {
  BUILTIN_GROUP_KEYS,
  BUILTIN_SORT_KEYS,
  OPERATORS,
  VALUELESS_OPERATORS,
  type ConditionValue,
  type FilterCondition,
  type FilterNode,
  type Operator,
  type ParsedQuery,
  type QueryOptions,
  type QueryPage,
  type QuerySettings,
  type UserFieldDef,
} from './types.js';
import { isRecord } from '../is-record.js';

export const MAX_DEPTH = 32;
const ROOT_ONLY = ['sortKey', 'sortDirection', 'groupKey', 'subgroupKey', 'limit', 'offset'] as const;
const RELATIVE_HELP =
  'use YYYY-MM-DD, YYYY-MM-DDTHH:mm or a relative date: today, tomorrow, yesterday, next week, last week, ' +
  'in N days, N days ago, in N weeks, N weeks ago (up to 100000 days)';

type Json = Record<string, unknown>;

const fail = (where: string, reason: string): DomainError =>
  invalid(`Invalid FilterQuery at ${where}: ${reason}`);
const quote = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** True when a condition is an unfinished placeholder that evaluation skips. */
export function isIncomplete(condition: FilterCondition): boolean {
  if (condition.property === '') return true;
  if (VALUELESS_OPERATORS.has(condition.operator)) return false;
  const v = condition.value;
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

export function parseFilterQuery(raw: unknown, settings: QuerySettings): ParsedQuery {
  if (!isRecord(raw))
    throw invalid('Invalid FilterQuery: the body must be a JSON object (a group or a condition)');
  const lookup = { userField: (id: string) => findUserField(settings.userFields, id) };
  const root = parseNode(raw, 'root', 0, lookup);
  return { root, options: parseOptions(raw, lookup), page: parsePage(raw) };
}

function findUserField(fields: readonly UserFieldDef[], id: string): UserFieldDef | undefined {
  return fields.find((f) => (f.id || f.key) === id);
}

type Lookup = { userField(id: string): UserFieldDef | undefined };

function parseNode(raw: unknown, where: string, depth: number, lookup: Lookup): FilterNode {
  if (!isRecord(raw)) throw fail(where, 'each node must be an object');
  if (depth > MAX_DEPTH) throw fail(where, `groups are nested too deeply (at most ${MAX_DEPTH} levels)`);
  if (raw.id !== undefined && typeof raw.id !== 'string')
    throw fail(where, '"id" must be a string when present');
  if (depth > 0) {
    const misplaced = ROOT_ONLY.find((k) => raw[k] !== undefined);
    if (misplaced) throw fail(where, `"${misplaced}" is only allowed on the root node`);
  }
  if (raw.type === 'group') return parseGroup(raw, where, depth, lookup);
  if (raw.type === 'condition') return parseCondition(raw, where, lookup);
  throw fail(where, `"type" must be "group" or "condition", got ${quote(raw.type)}`);
}

function parseGroup(raw: Json, where: string, depth: number, lookup: Lookup): FilterNode {
  if (raw.conjunction !== 'and' && raw.conjunction !== 'or') {
    throw fail(where, `a group's "conjunction" must be "and" or "or", got ${quote(raw.conjunction)}`);
  }
  if (!Array.isArray(raw.children)) throw fail(where, 'a group needs a "children" array');
  const children = raw.children.map((child, i) =>
    parseNode(child, `${where}.children[${i}]`, depth + 1, lookup),
  );
  return { type: 'group', id: raw.id as string | undefined, conjunction: raw.conjunction, children };
}

function parseCondition(raw: Json, where: string, lookup: Lookup): FilterCondition {
  if (raw.children !== undefined) throw fail(where, 'a condition cannot have "children" (use a group)');
  if (typeof raw.property !== 'string') throw fail(where, 'a condition needs a "property" string');
  if (typeof raw.operator !== 'string' || !(OPERATORS as readonly string[]).includes(raw.operator)) {
    throw fail(where, `unknown operator ${quote(raw.operator)}; operators are: ${OPERATORS.join(', ')}`);
  }
  const operator = raw.operator as Operator;
  const property = raw.property;
  const condition: FilterCondition = {
    type: 'condition',
    id: raw.id as string | undefined,
    property,
    operator,
  };
  if (raw.value !== undefined) condition.value = raw.value as ConditionValue;
  if (property === '') return condition;

  const prop = lookupProperty(property, lookup);
  if (!prop) {
    if (property.startsWith(USER_PREFIX)) {
      throw fail(where, `unknown user field ${quote(property)}: no configured user field has that id`);
    }
    throw fail(where, `unknown property ${quote(property)}`);
  }
  if (!prop.operators.includes(operator)) {
    throw fail(
      where,
      `operator "${operator}" is not valid for property "${property}" (${prop.kind}); ` +
        `use one of: ${prop.operators.join(', ')}`,
    );
  }
  if (!isIncomplete(condition)) checkValue(condition.value, prop, operator, where);
  return condition;
}

function checkValue(value: unknown, prop: PropertyDef, operator: Operator, where: string): void {
  if (VALUELESS_OPERATORS.has(operator)) return;
  const what = `value ${quote(value)} for "${prop.name}"`;
  if (prop.kind === 'date') {
    // Any fixed day works for checking: relative forms are recognised by shape, not by date.
    if (typeof value !== 'string' || !resolveConditionDate(value, '2000-01-01')) {
      throw fail(where, `${what} is not a date; ${RELATIVE_HELP}`);
    }
    return;
  }
  if (prop.kind === 'number') {
    const ok =
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && Number.isFinite(parseFloat(value)));
    if (!ok) throw fail(where, `${what} is not a number`);
    return;
  }
  if (prop.containsMode === 'projects' && typeof value !== 'string') {
    throw fail(where, `${what} must be a single project (a string)`);
  }
  const scalar = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number';
  if (!scalar(value) && !(Array.isArray(value) && value.every(scalar))) {
    throw fail(where, `${what} must be a string, a number or a list of them`);
  }
}

function parseOptions(raw: Json, lookup: Lookup): QueryOptions {
  const sortKey = optionalKey(raw, 'sortKey', BUILTIN_SORT_KEYS, lookup) ?? 'due';
  const groupKey = optionalKey(raw, 'groupKey', BUILTIN_GROUP_KEYS, lookup) ?? 'none';
  // subgroupKey is accepted for compatibility and ignored by this route, as in the reference.
  if (raw.subgroupKey !== undefined && typeof raw.subgroupKey !== 'string') {
    throw fail('root', '"subgroupKey" must be a string');
  }
  const dir = raw.sortDirection;
  if (dir !== undefined && dir !== 'asc' && dir !== 'desc') {
    throw fail('root', `"sortDirection" must be "asc" or "desc", got ${quote(dir)}`);
  }
  return { sortKey, groupKey, sortDirection: dir ?? 'asc' };
}

function parsePage(raw: Json): QueryPage {
  const count = (name: 'limit' | 'offset', min: number): number | undefined => {
    const value = raw[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      throw fail('root', `"${name}" must be an integer of at least ${min}, got ${quote(value)}`);
    }
    return value;
  };
  const limit = count('limit', 1);
  return { offset: count('offset', 0) ?? 0, ...(limit === undefined ? {} : { limit }) };
}

function optionalKey(
  raw: Json,
  name: 'sortKey' | 'groupKey',
  builtins: readonly string[],
  lookup: Lookup,
): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw fail('root', `"${name}" must be a string`);
  if (builtins.includes(value)) return value;
  if (value.startsWith(USER_PREFIX)) {
    if (lookup.userField(value.slice(USER_PREFIX.length))) return value;
    throw fail('root', `"${name}" names an unknown user field ${quote(value)}`);
  }
  throw fail('root', `unknown ${name} ${quote(value)}; use one of: ${builtins.join(', ')}, user:<fieldId>`);
}
