/** The health tool: the TaskNotes plugin's answer, from the facts `GET /api/health` reports. */
import { z } from 'zod';
import { VERSION } from '../../version.js';
import { defineTool } from '../tool.js';

export const systemTools = [
  defineTool({
    name: 'tasknotes_health_check',
    description: 'Check if the TaskNotes MCP server is running and return vault info',
    input: z.object({}),
    annotations: { readOnlyHint: true },
    run: async (ctx) => ({
      status: 'ok',
      vault: ctx.services.vaultInfo.name,
      vaultPath: ctx.services.vaultInfo.path,
      // Taskdown's addition: false while the vault folder is moved away or unmounted.
      vaultAvailable: ctx.services.tasks.vaultAvailable,
      version: VERSION,
      timestamp: new Date().toISOString(),
    }),
  }),
];
