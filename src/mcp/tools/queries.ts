/**
 * Query tools: FilterQuery runs, filter options and statistics, answered by the query service
 * that `POST /api/tasks/query`, `GET /api/filter-options` and `GET /api/stats` use. The argument
 * shapes are the TaskNotes plugin's; `limit` and `offset` are Taskdown's paging.
 */
import { z } from 'zod';
import { OPERATORS } from '../../core/query/types.js';
import { defineTool } from '../tool.js';
import { NotedAnswer } from '../tool-result.js';

/** A node of the filter tree (a condition or a group), as agents are told it. */
interface FilterNode {
  type: 'condition' | 'group';
  id?: string | undefined;
  property?: string | undefined;
  operator?: string | undefined;
  value?: unknown;
  conjunction?: 'and' | 'or' | undefined;
  children?: FilterNode[] | undefined;
}

/**
 * Only the tree's outline is checked here. The query service's validator (core/query/validate.ts)
 * checks the rest, as for `POST /api/tasks/query`, and says what is wrong and where: a strict
 * schema of conditions and groups answered every mistake with one "Invalid input at children[0]",
 * and refused the nodes without an id that the API takes.
 */
const NODE: z.ZodType<FilterNode> = z.lazy(() =>
  z.object({
    type: z.enum(['condition', 'group']),
    id: z.string().optional().describe('An optional label'),
    property: z
      .string()
      .optional()
      .describe("Condition: the property (e.g. 'status', 'priority', 'due', 'tags', 'projects', 'contexts')"),
    operator: z
      .string()
      .optional()
      .describe(`Condition: one of ${OPERATORS.join(', ')}`),
    value: z.unknown().optional().describe('Condition: a string, a number, a boolean or a list of strings'),
    conjunction: z.enum(['and', 'or']).optional().describe('Group: how its children combine'),
    children: z.array(NODE).optional().describe('Group: its conditions and groups'),
  }),
);

export const queryTools = [
  defineTool({
    name: 'tasknotes_query_tasks',
    description: 'Query tasks using advanced filters with AND/OR logic, sorting, and grouping',
    input: z.object({
      conjunction: z.enum(['and', 'or']).describe('How to combine filter conditions'),
      children: z.array(NODE).describe('Filter conditions or nested groups'),
      sortKey: z.string().optional().describe("Sort by field (e.g. 'due', 'priority', 'title', 'status')"),
      sortDirection: z.enum(['asc', 'desc']).optional().describe('Sort direction'),
      groupKey: z.string().optional().describe("Group by field (e.g. 'priority', 'status', 'projects')"),
      limit: z.number().optional().describe('At most this many tasks (default: all; at least 1)'),
      offset: z.number().optional().describe('Number of tasks to skip first'),
    }),
    annotations: { readOnlyHint: true },
    run: async (ctx, args) => {
      const { groups, tasks, filtered } = ctx.services.queries.run({
        type: 'group',
        id: 'mcp-root',
        ...args,
      });
      // The plugin's answer: each group's tasks under the group's key.
      const answer = Object.fromEntries(groups.map((g) => [g.key, g.tasks]));
      const first = args.offset ?? 0;
      if (tasks.length === filtered) return answer;
      const shown = tasks.length === 0 ? 'none' : `${first + 1}-${first + tasks.length}`;
      const more =
        first + tasks.length < filtered ? `; pass offset ${first + tasks.length} for the next ones` : '';
      return new NotedAnswer(answer, `Tasks ${shown} of ${filtered} that match${more}.`);
    },
  }),
  defineTool({
    name: 'tasknotes_get_filter_options',
    description: 'Get available filter options (statuses, priorities, tags, contexts, projects)',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    run: async (ctx) => ctx.services.queries.filterOptions(),
  }),
  defineTool({
    name: 'tasknotes_get_stats',
    description: 'Get task statistics (counts by status, priority, overdue, etc.)',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    run: async (ctx) => ctx.services.queries.stats(),
  }),
];
