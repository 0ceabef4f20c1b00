/**
 * FilterQuery evaluation (as in the TaskNotes plugin): a validated tree is compiled once into a
 * predicate, so per-task work is only reading values and comparing. Condition values (relative
 * dates included) are resolved at compile time against the run's local "today".
 */
import { isShared } from '../tasks/shared-views.js';
import type { TaskInfo } from '../tasks/task-info.js';
import type { QueryContext } from './context.js';
import { parseDate, resolveConditionDate, type ParsedDate } from './dates.js';
import { parseLink } from './links.js';
import { lookupProperty, type PropertyDef } from './properties.js';
import { isIncomplete } from './validate.js';
import type { ConditionValue, FilterCondition, FilterNode } from './types.js';

export type Predicate = (task: TaskInfo) => boolean;

const always: Predicate = () => true;

/** Compiles a validated tree. Unfinished conditions are dropped; an empty group matches all. */
export function compileFilter(root: FilterNode, ctx: QueryContext): Predicate {
  return compileNode(root, ctx) ?? always;
}

function compileNode(node: FilterNode, ctx: QueryContext): Predicate | undefined {
  if (node.type === 'condition') return isIncomplete(node) ? undefined : compileCondition(node, ctx);
  const parts = node.children.map((c) => compileNode(c, ctx)).filter((p): p is Predicate => p !== undefined);
  if (parts.length === 0) return always;
  if (parts.length === 1) return parts[0];
  // Plain loops: this runs for every task of the vault on every query.
  return node.conjunction === 'and'
    ? (task) => {
        for (const p of parts) if (!p(task)) return false;
        return true;
      }
    : (task) => {
        for (const p of parts) if (p(task)) return true;
        return false;
      };
}

function compileCondition(c: FilterCondition, ctx: QueryContext): Predicate {
  // Validation guarantees the property exists and accepts the operator.
  const prop = lookupProperty(c.property, ctx) as PropertyDef;
  const read = (task: TaskInfo): unknown => prop.get(task, ctx);
  const not =
    (p: Predicate): Predicate =>
    (task) =>
      !p(task);
  switch (c.operator) {
    case 'is-empty':
      return (task) => isEmptyValue(read(task));
    case 'is-not-empty':
      return (task) => !isEmptyValue(read(task));
    case 'is-checked':
      return (task) => read(task) === true;
    case 'is-not-checked':
      return (task) => read(task) !== true;
    case 'is':
    case 'is-not': {
      const is = prop.kind === 'date' ? dateIs(c.value, read, ctx) : valueIs(c.value, read);
      return c.operator === 'is' ? is : not(is);
    }
    case 'contains':
    case 'does-not-contain': {
      const contains = compileContains(prop, c.value as ConditionValue, read, ctx);
      return c.operator === 'contains' ? contains : not(contains);
    }
    case 'is-before':
    case 'is-after':
    case 'is-on-or-before':
    case 'is-on-or-after':
      return dateCompare(c.operator, c.value, read, ctx);
    case 'is-greater-than':
    case 'is-less-than':
    case 'is-greater-than-or-equal':
    case 'is-less-than-or-equal':
      return numberCompare(c.operator, c.value, read);
  }
}

/** Empty: nothing, a blank string, an empty list, or a list of only blank (or `""`/`''`) items. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'number') return Number.isNaN(value);
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) {
    return value.every((v) => {
      if (v === undefined || v === null) return true;
      const text = String(v).trim();
      return text === '' || text === '""' || text === "''";
    });
  }
  return false;
}

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : [v]);

const finite = (v: unknown): number | undefined => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string') {
    const n = parseFloat(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
};

/**
 * `is` for non-date properties: numeric when either side is a number and both parse as finite
 * numbers, otherwise strict (case-sensitive) equality; with lists, any pair may be equal.
 */
export function looseEquals(taskValue: unknown, conditionValue: unknown): boolean {
  for (const a of asList(taskValue)) {
    for (const b of asList(conditionValue)) {
      if (typeof a === 'number' || typeof b === 'number') {
        const x = finite(a);
        const y = finite(b);
        if (x !== undefined && y !== undefined) {
          if (x === y) return true;
          continue;
        }
      }
      if (a === b && a !== undefined) return true;
    }
  }
  return false;
}

/** Non-date `is`, with the common string-to-string case kept free of allocations. */
function valueIs(value: unknown, read: (t: TaskInfo) => unknown): Predicate {
  return (task) => {
    const v = read(task);
    if (typeof v === 'string' && typeof value === 'string') return v === value;
    return looseEquals(v, value);
  };
}

/** Date `is`: same calendar day, after resolving a relative condition value. */
function dateIs(value: unknown, read: (t: TaskInfo) => unknown, ctx: QueryContext): Predicate {
  const target = resolveConditionDate(String(value), ctx.today) as ParsedDate;
  return (task) => asList(read(task)).some((v) => typeof v === 'string' && parseDate(v)?.day === target.day);
}

function dateCompare(
  op: 'is-before' | 'is-after' | 'is-on-or-before' | 'is-on-or-after',
  value: unknown,
  read: (t: TaskInfo) => unknown,
  ctx: QueryContext,
): Predicate {
  const target = resolveConditionDate(String(value), ctx.today) as ParsedDate;
  const test = (d: ParsedDate): boolean => {
    switch (op) {
      case 'is-before':
        return d.instant < target.instant;
      case 'is-after':
        return d.instant > target.instant;
      case 'is-on-or-before':
        return d.instant < target.instant || d.day === target.day;
      case 'is-on-or-after':
        return d.instant > target.instant || d.day === target.day;
    }
  };
  return (task) =>
    asList(read(task)).some((v) => {
      const d = typeof v === 'string' && v.trim() !== '' ? parseDate(v) : undefined;
      return d !== undefined && test(d);
    });
}

function numberCompare(
  op: 'is-greater-than' | 'is-less-than' | 'is-greater-than-or-equal' | 'is-less-than-or-equal',
  value: unknown,
  read: (t: TaskInfo) => unknown,
): Predicate {
  const y = finite(value) as number;
  return (task) => {
    const x = finite(read(task));
    if (x === undefined) return false;
    switch (op) {
      case 'is-greater-than':
        return x > y;
      case 'is-less-than':
        return x < y;
      case 'is-greater-than-or-equal':
        return x >= y;
      case 'is-less-than-or-equal':
        return x <= y;
    }
  };
}

function compileContains(
  prop: PropertyDef,
  value: ConditionValue,
  read: (t: TaskInfo) => unknown,
  ctx: QueryContext,
): Predicate {
  if (prop.containsMode === 'tags') return tagsContain(value, read);
  if (prop.containsMode === 'projects') return projectsContain(String(value), ctx);
  const hit = containsMatcher(value);
  return (task) => {
    const raw = read(task);
    if (!Array.isArray(raw)) return hit(raw);
    for (const item of raw) if (hit(item)) return true;
    return false;
  };
}

/**
 * Whether one item (a list's element, or a value that is not a list) meets a plain `contains`:
 * it holds any of the wanted texts, case-insensitively. Also the query index's test of each
 * distinct `contexts` item (candidates.ts).
 */
export function containsMatcher(value: ConditionValue): (item: unknown) => boolean {
  const needles = asList(value).map((v) => String(v).toLowerCase());
  return (item) => {
    if (item === undefined || item === null) return false;
    const hay = String(item).toLowerCase();
    for (const n of needles) if (hay.includes(n)) return true;
    return false;
  };
}

/**
 * Lower-cased tag lists, kept per list of a shared task (shared-views.ts): the index replaces (never mutates) a
 * task when its note changes, so the work is done once per task version instead of on every
 * query. Lists of tasks that may still change are lower-cased afresh.
 */
const lowerTags = new WeakMap<readonly unknown[], string[]>();

function lowerCased(list: readonly unknown[], stable: boolean): string[] {
  let lower = stable ? lowerTags.get(list) : undefined;
  if (lower === undefined) {
    lower = list.map((t) => String(t).toLowerCase());
    if (stable) lowerTags.set(list, lower);
  }
  return lower;
}

/**
 * Tag `contains`: a tag matches a wanted tag when equal, a hierarchical child or a substring
 * (case-insensitive). A wanted tag starting with `-` excludes: any match makes the condition
 * false; with only exclusions, the condition holds when none matches.
 */
function tagsContain(value: ConditionValue, read: (t: TaskInfo) => unknown): Predicate {
  const wanted = asList(value).map((v) => String(v).trim().toLowerCase().replace(/^#/, ''));
  const include = wanted.filter((w) => !w.startsWith('-') && w !== '');
  const exclude = wanted
    .filter((w) => w.startsWith('-'))
    .map((w) => w.slice(1).replace(/^#/, ''))
    .filter((w) => w !== '');
  // Equal, child (`a/b` for `a`) and substring all reduce to a substring test.
  const anyTag = (tags: readonly string[], wanted: readonly string[]): boolean => {
    for (const t of tags) for (const w of wanted) if (t.includes(w)) return true;
    return false;
  };
  return (task) => {
    const raw = read(task);
    const tags = Array.isArray(raw)
      ? lowerCased(raw, isShared(task))
      : raw === undefined || raw === null
        ? []
        : [String(raw).toLowerCase()];
    if (exclude.length > 0 && anyTag(tags, exclude)) return false;
    return include.length === 0 ? exclude.length > 0 : anyTag(tags, include);
  };
}

/**
 * Project `contains`: equality of display names (alias, resolved note title, basename or plain
 * text), or two links resolving to the same note. Not a substring test.
 */
function projectsContain(value: string, ctx: QueryContext): Predicate {
  const wantedName = ctx.projectDisplayName(value, '').toLowerCase();
  const wantedPath = parseLink(value).isLink ? ctx.resolve(value, '') : undefined;
  return (task) =>
    task.projects.some((p) => {
      if (ctx.projectDisplayName(p, task.path).toLowerCase() === wantedName) return true;
      return wantedPath !== undefined && parseLink(p).isLink && ctx.resolve(p, task.path) === wantedPath;
    });
}
