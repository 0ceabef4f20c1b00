/** Pomodoro tools: the TaskNotes plugin's, over the pomodoro service the pomodoro routes use. */
import { z } from 'zod';
import { DURATION_RULE } from '../../core/pomodoro/model.js';
import { POMODORO_MESSAGES } from '../../core/pomodoro/pomodoro-service.js';
import { defineTool } from '../tool.js';

export const pomodoroTools = [
  defineTool({
    name: 'tasknotes_start_pomodoro',
    description: 'Start a pomodoro timer, optionally linked to a task',
    input: z.object({
      taskId: z.string().optional().describe('Task file path to associate with this pomodoro'),
      duration: z.number().optional().describe(`${DURATION_RULE} (default: work duration from settings)`),
    }),
    annotations: { destructiveHint: false },
    run: async (ctx, { taskId, duration }) => ({
      ...(await ctx.services.pomodoro.start({ taskPath: taskId, minutes: duration })),
      message: POMODORO_MESSAGES.started,
    }),
  }),
  defineTool({
    name: 'tasknotes_stop_pomodoro',
    description: 'Stop and reset the current pomodoro session',
    input: z.object({}),
    run: async (ctx) => {
      await ctx.services.pomodoro.stop();
      return { message: POMODORO_MESSAGES.stopped };
    },
  }),
  defineTool({
    name: 'tasknotes_pause_pomodoro',
    description: 'Pause the running pomodoro timer',
    input: z.object({}),
    run: async (ctx) => ({ ...(await ctx.services.pomodoro.pause()), message: POMODORO_MESSAGES.paused }),
  }),
  defineTool({
    name: 'tasknotes_resume_pomodoro',
    description: 'Resume a paused pomodoro timer',
    input: z.object({}),
    run: async (ctx) => ({ ...(await ctx.services.pomodoro.resume()), message: POMODORO_MESSAGES.resumed }),
  }),
  defineTool({
    name: 'tasknotes_get_pomodoro_status',
    description: 'Get the current pomodoro timer status including stats',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    run: async (ctx) => ctx.services.pomodoro.status(),
  }),
];
