/** Bases route (as in the TaskNotes plugin). */
import { Type } from '@sinclair/typebox';
import { defineRoute, ok, type RouteSpec } from '../route.js';

const Paths = Type.Array(Type.String(), { description: 'Paths exactly as configured in commandFileMapping' });

export const basesRoutes: RouteSpec[] = [
  defineRoute({
    method: 'POST',
    url: '/api/bases/default-files/update',
    summary: 'Write the default .base view files',
    description:
      'Regenerates every configured default .base file from the current TaskNotes settings, overwriting existing files. No body is read.',
    tags: ['bases'],
    responses: { 200: Type.Object({ created: Paths, updated: Paths, skipped: Paths }) },
    handler: async (_input, ctx) => ok(await ctx.services.bases.updateDefaultFiles()),
  }),
];
