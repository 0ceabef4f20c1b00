/** Time-tracking tools: the TaskNotes plugin's, over the time service the time routes use. */
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { withEtag } from '../tool-result.js';

const ID = z.string().describe('Task file path');

export const timeTools = [
  defineTool({
    name: 'tasknotes_start_time_tracking',
    description: 'Start a time tracking session on a task',
    input: z.object({
      id: ID,
      description: z.string().optional().describe('Description for the time session'),
    }),
    annotations: { destructiveHint: false },
    run: async (ctx, { id, description }) =>
      withEtag(ctx, (await ctx.services.time.start(id, description)).task),
  }),
  defineTool({
    name: 'tasknotes_stop_time_tracking',
    description: 'Stop the active time tracking session on a task',
    input: z.object({ id: ID }),
    run: async (ctx, { id }) => withEtag(ctx, (await ctx.services.time.stop(id)).task),
  }),
  defineTool({
    name: 'tasknotes_get_active_time_sessions',
    description: 'Get all tasks with currently running time tracking sessions',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    run: async (ctx) => ctx.services.time.active(),
  }),
  defineTool({
    name: 'tasknotes_get_time_summary',
    description: 'Get time tracking summary for a period',
    input: z.object({
      period: z
        .enum(['today', 'week', 'month', 'all', 'custom'])
        .optional()
        .describe('Time period (default: today)'),
      from: z.string().optional().describe('Start date (ISO string) for custom range'),
      to: z.string().optional().describe('End date (ISO string) for custom range'),
    }),
    annotations: { readOnlyHint: true },
    run: async (ctx, args) => ctx.services.time.summary(args),
  }),
  defineTool({
    name: 'tasknotes_get_task_time_data',
    description: 'Get detailed time tracking data for a specific task',
    input: z.object({ id: ID }),
    annotations: { readOnlyHint: true },
    run: (ctx, { id }) => ctx.services.time.report(id),
  }),
];
