/**
 * The query parameters of `GET /api/tasks` that agents' scripts send (the plugin's earlier list
 * filters: `?status=open&project=Website&overdue=true&sort=due:desc`), translated into a
 * FilterQuery so the query engine answers them: one implementation of every filter rule.
 *
 * - `status`, `priority`: `is` (several values, comma-separated or repeated: any of them);
 * - `project`, `context`, `tag`: `contains` with the engine's rules (a project matches by its
 *   display name or the note its link resolves to; a bare name is also tried as a link), a context
 *   by substring, a tag exactly, as a parent tag or by substring, `-tag` excludes);
 * - `completed`, `archived`, `overdue`: `true` or `false`;
 * - `due_before`, `due_after`, `scheduled_before`, `scheduled_after`: strictly before or after, with
 *   the engine's date rules (a date-only value is the end of its day next to a date-time). A
 *   timestamp with an offset (`2026-03-10T09:30:00Z`) names an instant; tasks hold local
 *   wall-clock times, so it is compared as the server's local time of that instant;
 * - `sort`: `field` or `field:asc|desc`; without it the result keeps the list's path order.
 *
 * Other parameters are ignored, as the reference ignores them. A bad value is a 400 naming the
 * parameter.
 */
import { invalid, type DomainError } from '../errors.js';
import { parseDate, resolveConditionDate } from './dates.js';
import { USER_PREFIX } from './properties.js';
import { BUILTIN_SORT_KEYS, type FilterQuery, type FilterNode, type QuerySettings } from './types.js';

/** A parsed query string: one value, or several for a repeated key. */
export type ListParams = Record<string, string | string[] | undefined>;

/** The filter parameters, in the order their conditions are built. */
export const LIST_FILTER_PARAMS = [
  'status',
  'priority',
  'project',
  'context',
  'tag',
  'completed',
  'archived',
  'overdue',
  'due_before',
  'due_after',
  'scheduled_before',
  'scheduled_after',
  'sort',
] as const;

type FilterParam = (typeof LIST_FILTER_PARAMS)[number];

const bad = (param: FilterParam, reason: string): DomainError =>
  invalid(`Invalid query parameter "${param}": ${reason}`, { field: param });

const DATE_HELP =
  'use YYYY-MM-DD, YYYY-MM-DDTHH:mm, an ISO 8601 timestamp or a relative date (today, tomorrow, in 3 days, …)';

/** Every value given for `param` (repeated keys and comma-separated lists), trimmed. */
function valuesOf(params: ListParams, param: FilterParam): string[] | undefined {
  const raw = params[param];
  if (raw === undefined) return undefined;
  const values = (Array.isArray(raw) ? raw : [raw])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (values.length === 0) throw bad(param, 'expected a value');
  return values;
}

function single(params: ListParams, param: FilterParam): string | undefined {
  const raw = params[param];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw bad(param, 'give it once');
  const value = raw.trim();
  if (value === '') throw bad(param, 'expected a value');
  return value;
}

const condition = (property: string, operator: string, value?: string): FilterNode =>
  ({ type: 'condition', property, operator, ...(value === undefined ? {} : { value }) }) as FilterNode;

/** `property operator v` for one value, an `or` group of them for several. */
function anyOf(property: string, operator: string, values: string[]): FilterNode {
  const nodes = values.map((v) => condition(property, operator, v));
  return nodes.length === 1
    ? (nodes[0] as FilterNode)
    : { type: 'group', conjunction: 'or', children: nodes };
}

function flag(params: ListParams, param: FilterParam, property: string): FilterNode | undefined {
  const value = single(params, param)?.toLowerCase();
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw bad(param, `expected true or false, got "${value}"`);
  return condition(property, value === 'true' ? 'is-checked' : 'is-not-checked');
}

/** The server's local wall-clock time of an instant, as `YYYY-MM-DDTHH:mm`. */
function localWallClock(instant: number): string {
  const d = new Date(instant);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const HAS_OFFSET = /T.*(Z|[+-]\d{2}:?\d{2})$/i;

function dateBound(
  params: ListParams,
  param: FilterParam,
  property: string,
  operator: string,
): FilterNode | undefined {
  const value = single(params, param);
  if (value === undefined) return undefined;
  // Any fixed day works for checking: relative forms are recognised by their shape.
  if (!resolveConditionDate(value, '2000-01-01')) throw bad(param, `"${value}" is not a date; ${DATE_HELP}`);
  const instant = HAS_OFFSET.test(value) && parseDate(value) ? Date.parse(value) : Number.NaN;
  return condition(property, operator, Number.isNaN(instant) ? value : localWallClock(instant));
}

function sortOptions(
  params: ListParams,
  settings: QuerySettings,
): Pick<FilterQuery, 'sortKey' | 'sortDirection'> {
  const value = single(params, 'sort');
  if (value === undefined) return { sortKey: 'path', sortDirection: 'asc' };
  // The field itself may hold a colon (`user:effort`): only a last part asc/desc is a direction.
  const colon = value.lastIndexOf(':');
  const suffix = colon < 0 ? '' : value.slice(colon + 1).toLowerCase();
  const hasDirection = suffix === 'asc' || suffix === 'desc';
  const field = hasDirection ? value.slice(0, colon) : value;
  const direction = hasDirection ? suffix : 'asc';
  const known =
    (BUILTIN_SORT_KEYS as readonly string[]).includes(field) ||
    (field.startsWith(USER_PREFIX) &&
      settings.userFields.some((f) => (f.id || f.key) === field.slice(USER_PREFIX.length)));
  if (!known) {
    throw bad(
      'sort',
      `unknown field "${field}"; use one of: ${BUILTIN_SORT_KEYS.join(', ')}, user:<fieldId>`,
    );
  }
  return { sortKey: field, sortDirection: direction };
}

/** Whether a list request has a filter parameter (else the plain, cached list answers it). */
export const hasListFilters = (params: ListParams): boolean =>
  LIST_FILTER_PARAMS.some((p) => params[p] !== undefined);

/** The FilterQuery of a list request's filters. Throws INVALID naming the parameter for a bad value. */
export function listFilterQuery(params: ListParams, settings: QuerySettings): FilterQuery {
  const children: Array<FilterNode | undefined> = [];
  const each = (param: FilterParam, property: string, operator: string): void => {
    const values = valuesOf(params, param);
    if (values) children.push(anyOf(property, operator, values));
  };
  each('status', 'status', 'is');
  each('priority', 'priority', 'is');
  // A bare name (what scripts send) is asked for as written and as a link: `Website` then finds
  // `[[Website]]` also when that note's title ("Website relaunch") is the link's display name.
  const projects = valuesOf(params, 'project')?.flatMap((v) => (v.startsWith('[[') ? [v] : [v, `[[${v}]]`]));
  if (projects) children.push(anyOf('projects', 'contains', projects));
  each('context', 'contexts', 'contains');
  each('tag', 'tags', 'contains');
  children.push(
    flag(params, 'completed', 'status.isCompleted'),
    flag(params, 'archived', 'archived'),
    flag(params, 'overdue', 'overdue'),
    dateBound(params, 'due_before', 'due', 'is-before'),
    dateBound(params, 'due_after', 'due', 'is-after'),
    dateBound(params, 'scheduled_before', 'scheduled', 'is-before'),
    dateBound(params, 'scheduled_after', 'scheduled', 'is-after'),
  );
  return {
    type: 'group',
    conjunction: 'and',
    children: children.filter((c): c is FilterNode => c !== undefined),
    ...sortOptions(params, settings),
  };
}
