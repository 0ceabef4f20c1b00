/** The calendar tool: the TaskNotes plugin's, over the calendar service of `/api/calendars/events`. */
import { z } from 'zod';
import { EVENT_BOUND_RULE } from '../../core/calendars/calendar-service.js';
import { defineTool } from '../tool.js';

export const calendarTools = [
  defineTool({
    name: 'tasknotes_get_calendar_events',
    description: 'Get calendar events from all connected providers (Google, Microsoft, ICS subscriptions)',
    input: z.object({
      start: z.string().optional().describe(`Start date filter: ${EVENT_BOUND_RULE}`),
      end: z.string().optional().describe(`End date filter: ${EVENT_BOUND_RULE}`),
    }),
    annotations: { readOnlyHint: true, openWorldHint: true },
    run: async (ctx, { start, end }) => {
      const { events, total } = await ctx.services.calendars.events({ start, end });
      return { events, total };
    },
  }),
];
