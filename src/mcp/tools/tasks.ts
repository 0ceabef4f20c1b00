/**
 * Task tools: the TaskNotes plugin's task tools (same names, descriptions and arguments), plus an
 * optional `etag` on every tool that writes an existing task (If-Match: a stale version is a tool
 * error with the current task, and nothing is written), and Taskdown's skip/unskip and text parse.
 */
import { z } from 'zod';
import { invalid } from '../../core/errors.js';
import type { TaskCreateInput } from '../../core/tasks/task-service.js';
import { defineTool } from '../tool.js';
import { preconditionOfArg, withEtag } from '../tool-result.js';

const ETAG = z
  .string()
  .optional()
  .describe(
    'Only write if the task is still this version (the etag a read returned); otherwise the tool fails with the current task',
  );
const ID = z.string().describe('Task file path');

const REMINDER = z.object({
  id: z.string().describe('Unique reminder ID'),
  type: z.enum(['absolute', 'relative']).describe('Reminder type'),
  relatedTo: z.enum(['scheduled', 'due']).optional().describe('Anchor date for relative reminders'),
  offset: z.string().optional().describe('ISO 8601 duration offset for relative reminders, e.g. -PT1H'),
  absoluteTime: z.string().optional().describe('Absolute reminder time as an ISO 8601 timestamp'),
  description: z.string().optional().describe('Optional reminder description'),
});

/** Drops arguments the client did not send (an update changes only what it names). */
function defined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

/** tasknotes_update_task's arguments. */
const UPDATE_INPUT = z.object({
  id: ID,
  title: z.string().optional().describe('New title'),
  status: z.string().optional().describe('New status'),
  priority: z.string().optional().describe('New priority'),
  due: z.string().nullable().optional().describe('New due date (YYYY-MM-DD) or null to clear'),
  scheduled: z.string().nullable().optional().describe('New scheduled date (YYYY-MM-DD) or null to clear'),
  tags: z.array(z.string()).optional().describe('New tags'),
  contexts: z.array(z.string()).optional().describe('New contexts'),
  projects: z.array(z.string()).optional().describe('New projects'),
  recurrence: z.string().nullable().optional().describe('New recurrence rule or null to clear'),
  timeEstimate: z.number().nullable().optional().describe('New time estimate in minutes or null to clear'),
  reminders: z.array(REMINDER).nullable().optional().describe('New reminders array or null to clear'),
  details: z.string().optional().describe('New body/description'),
  etag: ETAG,
});
/** What tasknotes_update_task can change. */
const UPDATABLE = Object.keys(UPDATE_INPUT.shape).filter((key) => key !== 'id' && key !== 'etag');

export const taskTools = [
  defineTool({
    name: 'tasknotes_list_tasks',
    description: 'List all tasks with optional pagination',
    input: z.object({
      limit: z.number().int().min(1).optional().describe('Max tasks to return (default: all)'),
      offset: z.number().int().min(0).optional().describe('Number of tasks to skip'),
    }),
    annotations: { readOnlyHint: true },
    run: async (ctx, { limit, offset }) => {
      const start = offset ?? 0;
      const page = ctx.services.tasks.page(start, limit ?? Infinity);
      return { tasks: page.tasks, total: page.total, offset: start, returned: page.tasks.length };
    },
  }),
  defineTool({
    name: 'tasknotes_get_task',
    description: 'Get a single task by its file path ID',
    input: z.object({ id: z.string().describe("Task file path (e.g. 'tasks/My Task.md')") }),
    annotations: { readOnlyHint: true },
    run: async (ctx, { id }) => withEtag(ctx, await ctx.services.tasks.get(id)),
  }),
  defineTool({
    name: 'tasknotes_create_task',
    description: 'Create a new task',
    input: z.object({
      title: z.string().describe('Task title'),
      status: z.string().optional().describe("Task status (e.g. 'open', 'in-progress', 'done')"),
      priority: z.string().optional().describe("Task priority (e.g. 'low', 'normal', 'high', 'urgent')"),
      due: z.string().optional().describe('Due date (YYYY-MM-DD)'),
      scheduled: z.string().optional().describe('Scheduled date (YYYY-MM-DD)'),
      tags: z.array(z.string()).optional().describe('Tags'),
      contexts: z.array(z.string()).optional().describe('Contexts'),
      projects: z.array(z.string()).optional().describe('Projects'),
      recurrence: z.string().optional().describe('RFC 5545 recurrence rule'),
      timeEstimate: z.number().optional().describe('Time estimate in minutes'),
      reminders: z.array(REMINDER).optional().describe('Task reminders'),
      details: z.string().optional().describe('Task body/description'),
    }),
    annotations: { destructiveHint: false },
    run: async (ctx, args) =>
      withEtag(ctx, await ctx.services.tasks.create(defined(args) as unknown as TaskCreateInput)),
  }),
  defineTool({
    name: 'tasknotes_update_task',
    description: "Update an existing task's properties",
    input: UPDATE_INPUT,
    annotations: { idempotentHint: true },
    run: async (ctx, { id, etag, ...updates }) => {
      const changes = defined(updates);
      // The API's PUT with no field still writes dateModified (as the plugin's does); an agent's
      // call with nothing to change is a mistake to say, not a write.
      if (Object.keys(changes).length === 0) {
        throw invalid(`Nothing to update: give at least one of ${UPDATABLE.join(', ')}`);
      }
      return withEtag(
        ctx,
        await ctx.services.tasks.update(id, changes, { precondition: preconditionOfArg(etag) }),
      );
    },
  }),
  defineTool({
    name: 'tasknotes_delete_task',
    description: 'Permanently delete a task file',
    input: z.object({ id: ID, etag: ETAG }),
    annotations: { destructiveHint: true, idempotentHint: true },
    run: async (ctx, { id, etag }) => {
      await ctx.services.tasks.delete(id, { precondition: preconditionOfArg(etag) });
      return { deleted: true, id };
    },
  }),
  defineTool({
    name: 'tasknotes_toggle_status',
    description: "Toggle a task's status through the status cycle",
    input: z.object({ id: ID, etag: ETAG }),
    run: async (ctx, { id, etag }) =>
      withEtag(ctx, await ctx.services.tasks.toggleStatus(id, { precondition: preconditionOfArg(etag) })),
  }),
  defineTool({
    name: 'tasknotes_toggle_archive',
    description: "Toggle a task's archived state",
    input: z.object({ id: ID, etag: ETAG }),
    run: async (ctx, { id, etag }) =>
      withEtag(ctx, await ctx.services.tasks.toggleArchive(id, { precondition: preconditionOfArg(etag) })),
  }),
  defineTool({
    name: 'tasknotes_complete_recurring_instance',
    description:
      "Toggle a recurring task's completion for a specific date: completes that instance, or un-completes it when it is already completed (calling it twice undoes it)",
    input: z.object({
      id: ID,
      date: z.string().optional().describe('Date to mark complete (YYYY-MM-DD), defaults to today'),
      etag: ETAG,
    }),
    run: async (ctx, { id, date, etag }) =>
      withEtag(ctx, await ctx.services.recurrence.completeInstance(id, date, preconditionOfArg(etag))),
  }),
  defineTool({
    name: 'tasknotes_materialize_occurrence',
    description: 'Create or return a materialized occurrence note for a recurring task',
    input: z.object({
      id: z.string().describe('Parent recurring task file path'),
      date: z.string().describe('Occurrence date to materialize (YYYY-MM-DD)'),
    }),
    annotations: { destructiveHint: false, idempotentHint: true },
    run: async (ctx, { id, date }) =>
      withEtag(ctx, (await ctx.services.recurrence.materializeOccurrence(id, date)).task),
  }),
  defineTool({
    name: 'tasknotes_skip_instance',
    description:
      'Skip one instance of a recurring task (adds the date to skipped_instances and moves the schedule on)',
    input: z.object({
      id: z.string().describe('Recurring task file path'),
      date: z.string().describe('Instance date to skip (YYYY-MM-DD)'),
      etag: ETAG,
    }),
    annotations: { destructiveHint: false, idempotentHint: true },
    run: async (ctx, { id, date, etag }) =>
      withEtag(ctx, await ctx.services.recurrence.skipInstance(id, date, preconditionOfArg(etag))),
  }),
  defineTool({
    name: 'tasknotes_unskip_instance',
    description: 'Undo the skip of one instance of a recurring task',
    input: z.object({
      id: z.string().describe('Recurring task file path'),
      date: z.string().describe('Instance date to unskip (YYYY-MM-DD)'),
      etag: ETAG,
    }),
    annotations: { idempotentHint: true },
    run: async (ctx, { id, date, etag }) =>
      withEtag(ctx, await ctx.services.recurrence.unskipInstance(id, date, preconditionOfArg(etag))),
  }),
  defineTool({
    name: 'tasknotes_create_task_from_text',
    description:
      "Create a task by parsing natural language text (e.g. 'Buy groceries tomorrow #shopping @home')",
    input: z.object({ text: z.string().describe('Natural language task description') }),
    annotations: { destructiveHint: false },
    run: async (ctx, { text }) => {
      const { task, parsed } = await ctx.services.nlp.create(text);
      return { parsed, task: withEtag(ctx, task) };
    },
  }),
  defineTool({
    name: 'tasknotes_parse_text',
    description:
      'Parse natural language text into task fields without creating anything (what tasknotes_create_task_from_text would create)',
    input: z.object({
      text: z.string().describe('Natural language task description'),
      referenceDate: z
        .string()
        .optional()
        .describe('ISO 8601 instant that relative phrases are read against (default: now)'),
    }),
    annotations: { readOnlyHint: true },
    run: (ctx, { text, referenceDate }) => ctx.services.nlp.parse(text, { referenceDate }),
  }),
];
