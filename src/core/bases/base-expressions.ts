/**
 * Building blocks of Obsidian Bases expressions used by the default templates: property
 * references through the field mapping, the task-identification filter, the incomplete-task
 * conditions and the `order` column list.
 */
import type { FieldMapping } from '../tasks/field-mapping.js';
import type { BasesSettings } from './bases-settings.js';

/** A string literal inside a Bases expression. */
export const literal = (value: string): string => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** `note["name"]`: valid for any property name, including ones with spaces. */
export const noteRef = (name: string): string => `note[${literal(name)}]`;

/** A bare name where Bases accepts one, bracket notation otherwise. */
export const ref = (name: string): string => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : noteRef(name));

export const field = (s: BasesSettings, key: keyof FieldMapping): string => ref(s.fieldMapping[key]);

export const dayOf = (expr: string): string => `date(${expr}).format("YYYY-MM-DD")`;
export const TODAY = 'today().format("YYYY-MM-DD")';
export const TOMORROW = '(today() + "1 day").format("YYYY-MM-DD")';
export const YESTERDAY = '(today() - "1 day").format("YYYY-MM-DD")';
export const WEEK_END = '(today() + "7 days").format("YYYY-MM-DD")';

/** The condition that makes a note a task (tag or property identification). */
export function taskCondition(s: BasesSettings): string {
  const { method, tag, propertyName, propertyValue } = s.identification;
  if (method !== 'property' || propertyName === '') return `file.hasTag(${literal(tag)})`;
  const prop = noteRef(propertyName);
  if (propertyValue === '') return `${prop} && ${prop} != "" && ${prop} != null`;
  const lower = propertyValue.toLowerCase();
  // Obsidian stores checkbox properties as booleans, so compare with a boolean, not a string.
  if (lower === 'true' || lower === 'false') return `${prop} == ${lower}`;
  return `${prop} == ${literal(propertyValue)}`;
}

/** Top-level `and:` list: the task condition plus one exclusion per excluded folder. */
export function taskFilterConditions(s: BasesSettings): string[] {
  return [taskCondition(s), ...s.excludedFolders.map((f) => `!file.inFolder(${literal(f)})`)];
}

export const completedValues = (s: BasesSettings): string[] =>
  s.statuses.filter((st) => st.isCompleted).map((st) => st.value);

/** Incomplete tasks: a non-recurring task outside every completed status, or a recurring one not done today. */
export function incompleteCondition(s: BasesSettings): Record<string, unknown> {
  const status = field(s, 'status');
  const recurrence = field(s, 'recurrence');
  const notCompleted = completedValues(s).map((v) => `${status} != ${literal(v)}`);
  return {
    or: [
      { and: [`${recurrence}.isEmpty()`, ...notCompleted] },
      {
        and: [
          `${recurrence}.isEmpty() == false`,
          // `!= true` rather than a leading `!`, which YAML would read as a tag.
          `${field(s, 'completeInstances')}.map(date(value).format("YYYY-MM-DD")).contains(${TODAY}) != true`,
        ],
      },
    ],
  };
}

/** The file a dependency entry (object with `uid`, or a plain link) points at. */
export const dependencyFile = (entry: string): string =>
  `file(if(${entry}.isType("object"), ${entry}.uid, ${entry}))`;

/** Maps a TaskNotes property id (as in `defaultVisibleProperties`) to a Bases property. */
export function basesProperty(s: BasesSettings, id: string): string | undefined {
  if (id.startsWith('user:')) return s.userFields.find((f) => f.id === id.slice(5))?.key;
  switch (id) {
    case 'tags':
      return 'file.tags';
    case 'title':
      return 'file.name';
    case 'dateCreated':
      return 'file.ctime';
    case 'dateModified':
      return 'file.mtime';
    case 'blocked':
    case 'blocking':
      return s.fieldMapping.blockedBy;
    case 'complete_instances':
      return s.fieldMapping.completeInstances;
    case 'totalTrackedTime':
      return s.fieldMapping.timeEntries;
    case 'checklistProgress':
      return 'file.tasks';
  }
  if (id in s.fieldMapping) return s.fieldMapping[id as keyof FieldMapping];
  return id;
}

/** Visible columns, then the ones task cards always need, without duplicates. */
export function orderColumns(s: BasesSettings): string[] {
  const wanted = [
    ...s.visibleProperties.map((p) => basesProperty(s, p)),
    'file.name',
    s.fieldMapping.recurrence,
    s.fieldMapping.completeInstances,
    'file.tasks',
  ];
  return [...new Set(wanted.filter((p): p is string => typeof p === 'string' && p !== ''))];
}
