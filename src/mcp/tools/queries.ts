/**
 * Query tools: FilterQuery runs, filter options and statistics, answered by the query service
 * that `POST /api/tasks/query`, `GET /api/filter-options` and `GET /api/stats` use. The argument
 * shapes are the TaskNotes plugin's; `limit` and `offset` are Taskdown's paging.
 */
import { z } from 'zod';
import { OPERATORS } from '../../core/query/types.js';
import { defineTool } from '../tool.js';

const VALUE = z.union([z.string(), z.array(z.string()), z.number(), z.boolean(), z.null()]);

const CONDITION = z.object({
  type: z.literal('condition'),
  id: z.string(),
  property: z
    .string()
    .describe("Filter property (e.g. 'status', 'priority', 'due', 'tags', 'projects', 'contexts')"),
  operator: z.enum(OPERATORS).describe(`Filter operator. Valid operators: ${OPERATORS.join(', ')}`),
  value: VALUE,
});

interface Group {
  type: 'group';
  id: string;
  conjunction: 'and' | 'or';
  children: Array<z.infer<typeof CONDITION> | Group>;
}

const GROUP: z.ZodType<Group> = z.lazy(() =>
  z.object({
    type: z.literal('group'),
    id: z.string(),
    conjunction: z.enum(['and', 'or']),
    children: z.array(z.union([CONDITION, GROUP])),
  }),
);

export const queryTools = [
  defineTool({
    name: 'tasknotes_query_tasks',
    description: 'Query tasks using advanced filters with AND/OR logic, sorting, and grouping',
    input: z.object({
      conjunction: z.enum(['and', 'or']).describe('How to combine filter conditions'),
      children: z.array(z.union([CONDITION, GROUP])).describe('Filter conditions or nested groups'),
      sortKey: z.string().optional().describe("Sort by field (e.g. 'due', 'priority', 'title', 'status')"),
      sortDirection: z.enum(['asc', 'desc']).optional().describe('Sort direction'),
      groupKey: z.string().optional().describe("Group by field (e.g. 'priority', 'status', 'projects')"),
      limit: z.number().optional().describe('At most this many tasks (default: all)'),
      offset: z.number().optional().describe('Number of tasks to skip first'),
    }),
    annotations: { readOnlyHint: true },
    run: async (ctx, args) => {
      const { groups } = ctx.services.queries.run({ type: 'group', id: 'mcp-root', ...args });
      // The plugin's answer: each group's tasks under the group's key.
      return Object.fromEntries(groups.map((g) => [g.key, g.tasks]));
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
