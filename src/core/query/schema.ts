/**
 * TypeBox schemas of the FilterQuery request and the query/filter-options/stats responses, for
 * the OpenAPI document and a first structural check. The full rules (operators per property,
 * values, unknown user fields) live in validate.ts, which produces the precise 400 messages.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { TaskInfoSchema } from '../tasks/task-info.js';
import { BUILTIN_PROPERTIES, KIND_OPERATORS } from './properties.js';
import { BUILTIN_GROUP_KEYS, BUILTIN_SORT_KEYS, OPERATORS } from './types.js';

/**
 * A string enum as one `enum` keyword (not an anyOf of consts), so a validation failure points at
 * this schema and its `errorMessage` is the one reported.
 */
const literals = <T extends string>(values: readonly T[], options: Record<string, unknown>): TSchema =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

const propertyTable = [...BUILTIN_PROPERTIES.values()]
  .map((p) => `\`${p.name}\` (${p.kind}: ${KIND_OPERATORS[p.kind].join(', ')})`)
  .join('; ');

const nodeFields = {
  type: literals(['group', 'condition'], {
    description: '`group` (with conjunction and children) or `condition` (with property, operator, value).',
    errorMessage: 'FilterQuery node "type" must be "group" or "condition"',
  }),
  id: Type.Optional(Type.String({ description: 'Client-chosen node label; optional.' })),
  conjunction: Type.Optional(
    literals(['and', 'or'], {
      description: 'Groups only: `and` (every child matches) or `or` (at least one does).',
      errorMessage: 'FilterQuery group "conjunction" must be "and" or "or"',
    }),
  ),
  property: Type.Optional(
    Type.String({
      description:
        `Conditions only. Built-in properties with their operators: ${propertyTable}. ` +
        'Also `user:<fieldId>` for a configured user field, with operators by field type (see ' +
        'GET /api/filter-options `userProperties`). `""` is a placeholder and is ignored.',
    }),
  ),
  operator: Type.Optional(
    literals(OPERATORS, {
      description:
        'Conditions only. Must be valid for the property. `is-empty`, `is-not-empty`, `is-checked` and ' +
        '`is-not-checked` take no value.',
      errorMessage: `FilterQuery condition "operator" must be one of: ${OPERATORS.join(', ')}`,
    }),
  ),
  value: Type.Optional(
    Type.Union(
      [
        Type.String(),
        Type.Number(),
        Type.Boolean(),
        Type.Null(),
        Type.Array(Type.Union([Type.String(), Type.Number()])),
      ].map((s) => ({
        ...s,
        errorMessage:
          'FilterQuery condition "value" must be a string, number, boolean, null or a list of strings or numbers',
      })),
      {
        description:
          'Conditions only. Dates: `YYYY-MM-DD`, `YYYY-MM-DDTHH:mm` or relative (`today`, `tomorrow`, ' +
          '`yesterday`, `next week`, `last week`, `in N days`, `N days ago`, `in N weeks`, `N weeks ago`; local ' +
          'date). Numbers for timeEstimate and number fields. A list means "any of" for is/contains. Tag values ' +
          'starting with `-` exclude. `null`/`""` marks an unfinished condition, which is ignored.',
      },
    ),
  ),
};

/** A nested node (group or condition) of a FilterQuery. */
export const FilterNodeSchema = Type.Recursive(
  (Self) =>
    Type.Object(
      {
        ...nodeFields,
        children: Type.Optional(
          Type.Array(Self, {
            description: 'Groups only: child groups and conditions.',
            errorMessage: 'FilterQuery group "children" must be an array of nodes',
          }),
        ),
      },
      { additionalProperties: true, description: 'A FilterQuery group or condition.' },
    ),
  { $id: 'FilterNode' },
);

export const FilterQuerySchema = Type.Object(
  {
    ...nodeFields,
    children: Type.Optional(
      Type.Array(FilterNodeSchema, {
        description: 'Groups only: child groups and conditions.',
        errorMessage: 'FilterQuery group "children" must be an array of nodes',
      }),
    ),
    sortKey: Type.Optional(
      Type.String({
        description: `Root only. One of ${BUILTIN_SORT_KEYS.join(', ')} or \`user:<fieldId>\`. Default \`due\`.`,
      }),
    ),
    sortDirection: Type.Optional(
      literals(['asc', 'desc'], {
        description: 'Root only. Default `asc`. Ties break by due, scheduled, priority (high first), title.',
        errorMessage: 'FilterQuery "sortDirection" must be "asc" or "desc"',
      }),
    ),
    groupKey: Type.Optional(
      Type.String({
        description:
          `Root only. One of ${BUILTIN_GROUP_KEYS.join(', ')} or \`user:<fieldId>\`. Default \`none\`. ` +
          'Groups order the flattened result; each task appears once (a task with several projects or tags ' +
          'goes to the group of its first one).',
      }),
    ),
    subgroupKey: Type.Optional(Type.String({ description: 'Accepted and ignored, as in the reference.' })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Root only. At most this many tasks of the sorted, grouped result (default: all).',
      }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Root only. Skip this many tasks first (default 0).' }),
    ),
  },
  {
    additionalProperties: true,
    description:
      'The root of a FilterQuery: a group (or a single condition) plus sort, group and paging options. ' +
      'An invalid query answers 400 with the reason and the node location (e.g. `root.children[1]`); the ' +
      'server checks the whole tree itself, so this schema documents the shape.',
    examples: [
      {
        type: 'group',
        id: 'root',
        conjunction: 'and',
        sortKey: 'due',
        sortDirection: 'asc',
        children: [
          { type: 'condition', id: 'c1', property: 'status', operator: 'is-not', value: 'done' },
          { type: 'condition', id: 'c2', property: 'due', operator: 'is-on-or-before', value: 'in 7 days' },
          {
            type: 'group',
            id: 'g1',
            conjunction: 'or',
            children: [
              { type: 'condition', id: 'c3', property: 'tags', operator: 'contains', value: 'work' },
              { type: 'condition', id: 'c4', property: 'priority', operator: 'is', value: 'high' },
            ],
          },
        ],
      },
    ],
  },
);

const VaultInfo = Type.Object({ name: Type.String(), path: Type.Union([Type.String(), Type.Null()]) });

export const QueryResultSchema = Type.Object({
  tasks: Type.Array(TaskInfoSchema, {
    description: 'Matching tasks (read shape without details), sorted and grouped',
  }),
  total: Type.Integer({ description: 'Number of tasks in the vault' }),
  filtered: Type.Integer({
    description: 'Number of matching tasks (all of them, also when `limit` returns fewer)',
  }),
  vault: VaultInfo,
});

const ConfigObject = (description: string): TSchema =>
  Type.Object(
    { value: Type.String(), label: Type.Optional(Type.String()), color: Type.Optional(Type.String()) },
    { additionalProperties: true, description },
  );

export const FilterOptionsSchema = Type.Object({
  statuses: Type.Array(ConfigObject('A configured status (full StatusConfig)')),
  priorities: Type.Array(ConfigObject('A configured priority (full PriorityConfig)')),
  contexts: Type.Array(Type.String()),
  projects: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  folders: Type.Array(Type.String({ description: 'Parent folder of a task; `(Root)` for the vault root' })),
  userProperties: Type.Array(
    Type.Object({
      id: Type.String({ description: '`user:<fieldId>`, usable as a FilterQuery property' }),
      label: Type.String(),
      category: literals(['boolean', 'numeric', 'date', 'text'], {}),
      supportedOperators: Type.Array(literals(OPERATORS, {})),
      valueInputType: literals(['none', 'number', 'date', 'text'], {}),
    }),
  ),
});

export const StatsSchema = Type.Object({
  total: Type.Integer({ description: 'All tasks, archived ones included' }),
  completed: Type.Integer({ description: 'Tasks whose status is a completed status' }),
  active: Type.Integer({ description: 'Not completed and not archived' }),
  overdue: Type.Integer({ description: 'Active tasks whose due date/time has passed (local time)' }),
  archived: Type.Integer(),
  withTimeTracking: Type.Integer({ description: 'Tasks with at least one time entry' }),
});
