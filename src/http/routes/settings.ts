/**
 * The settings page's JSON backend, outside /api (the TaskNotes plugin's Integrations settings): the
 * page must be able to switch the HTTP API back on, so these routes are not behind the
 * API-enabled switch, but they need the token like /api does (src/http/gates/). They are
 * hidden from the OpenAPI document, which describes the 40-route interface only.
 */
import { Type } from '@sinclair/typebox';
import { ApiAccess, TOKEN_RULE } from '../../core/state/api-access.js';
import { isLoopbackHost } from '../../config/config.js';
import type { AppContext } from '../context.js';
import { defineRoute, ok, type RouteSpec } from '../route.js';
import { VERSION } from '../../version.js';
import { settingsCalendarRoutes } from './settings-calendars.js';
import { settingsWebhookRoutes } from './settings-webhooks.js';

const T = ['settings'];

const ApiStatus = Type.Object({
  apiEnabled: Type.Boolean(),
  host: Type.String(),
  port: Type.Integer(),
  tokenSet: Type.Boolean(),
  tokenSource: Type.Union([Type.Literal('none'), Type.Literal('settings'), Type.Literal('command-line')]),
  version: Type.String(),
  vault: Type.Object({ name: Type.String(), path: Type.String() }),
});

function access(ctx: AppContext): ApiAccess {
  return new ApiAccess({
    settings: ctx.services.settings,
    commandLineToken: ctx.config.token,
    mayRunWithoutToken: isLoopbackHost(ctx.config.host),
  });
}

function apiStatus(ctx: AppContext, api: ApiAccess) {
  const { host, port } = ctx.address();
  return { ...api.status(), host, port, version: VERSION, vault: ctx.services.vaultInfo };
}

const apiRoutes: RouteSpec[] = [
  defineRoute({
    method: 'GET',
    url: '/settings-api/session',
    summary: 'Whether the settings page must ask for a token',
    description:
      'Public, so that a page without a token learns it needs one from an answer rather than a 401, ' +
      'which browsers log as an error. It checks no token (that would be a guess without lockout) ' +
      'and tells nothing a 401 does not.',
    tags: T,
    hidden: true,
    public: true,
    responses: { 200: Type.Object({ tokenRequired: Type.Boolean() }) },
    handler: async (_input, ctx) => ok({ tokenRequired: access(ctx).status().tokenSet }),
  }),
  defineRoute({
    method: 'GET',
    url: '/settings-api/api',
    summary: 'HTTP API switch, address and token state',
    tags: T,
    hidden: true,
    responses: { 200: ApiStatus },
    handler: async (_input, ctx) => ok(apiStatus(ctx, access(ctx))),
  }),
  defineRoute({
    method: 'PUT',
    url: '/settings-api/api',
    summary: 'Switch the HTTP API on or off',
    tags: T,
    hidden: true,
    body: Type.Object(
      { enabled: Type.Boolean({ errorMessage: 'enabled must be a boolean' }) },
      { additionalProperties: false },
    ),
    responses: { 200: ApiStatus },
    handler: async ({ body }, ctx) => {
      const api = access(ctx);
      await api.setEnabled(body.enabled);
      return ok(apiStatus(ctx, api));
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/settings-api/api/token',
    summary: 'Set the bearer token',
    tags: T,
    hidden: true,
    body: Type.Object({ token: Type.String({ errorMessage: TOKEN_RULE }) }, { additionalProperties: false }),
    responses: { 200: ApiStatus },
    handler: async ({ body }, ctx) => {
      const api = access(ctx);
      await api.setToken(body.token);
      return ok(apiStatus(ctx, api));
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/settings-api/api/token/rotate',
    summary: 'Replace the bearer token with a generated one (returned once)',
    tags: T,
    hidden: true,
    responses: { 200: Type.Object({ token: Type.String(), api: ApiStatus }) },
    handler: async (_input, ctx) => {
      const api = access(ctx);
      const { token } = await api.rotateToken();
      return ok({ token, api: apiStatus(ctx, api) });
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: '/settings-api/api/token',
    summary: 'Remove the bearer token',
    tags: T,
    hidden: true,
    responses: { 200: ApiStatus },
    handler: async (_input, ctx) => {
      const api = access(ctx);
      await api.clearToken();
      return ok(apiStatus(ctx, api));
    },
  }),
];

export const settingsRoutes: RouteSpec[] = [
  ...apiRoutes,
  ...settingsWebhookRoutes,
  ...settingsCalendarRoutes,
];
