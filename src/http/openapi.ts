/**
 * OpenAPI 3.1 generation. Paths come from the route schemas through @fastify/swagger; the
 * `webhooks` section comes from the event catalogue, so the outbound payloads are documented
 * from the same table that drives delivery.
 */
import type { SwaggerOptions } from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import { EVENT_CATALOGUE, PING_EVENT } from '../core/events/catalogue.js';
import { INTERFACE_VERSION, VERSION } from '../version.js';
import type { AppContext } from './context.js';

export function openApiOptions(_ctx: AppContext): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Taskdown API',
        version: VERSION,
        description:
          'Headless task service for Markdown vaults in the TaskNotes format. Implements the task service ' +
          `interface release ${INTERFACE_VERSION}. Every JSON response uses the envelope ` +
          '`{success:true,data}` or `{success:false,error}`.',
        'x-interface-version': INTERFACE_VERSION,
      } as never,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'Required on every /api route when a token is configured.',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
  };
}

/** Adds what is specific to this server run: the server URL and the webhook payloads. */
export function finishDocument(doc: Record<string, unknown>, ctx: AppContext): Record<string, unknown> {
  const { host, port } = ctx.address();
  const displayHost = host.includes(':') ? `[${host}]` : host;
  const webhooks: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries({ ...EVENT_CATALOGUE, ...PING_EVENT })) {
    webhooks[name] = {
      post: {
        summary: entry.summary,
        description:
          'With corsHeaders true, signed as the webhook’s `signing` says: `taskdown`: X-Service-Signature, the ' +
          'lowercase hex HMAC-SHA256 of the exact body keyed with the secret text, and X-Service-Delivery-ID; ' +
          '`standard` (Standard Webhooks): webhook-id, webhook-timestamp and webhook-signature ' +
          '(v1,base64 HMAC-SHA256 of "id.timestamp.body"). During a secret rotation both secrets sign ' +
          '(X-Service-Signature-Previous; two v1 values). X-Service-Event names the event.',
        requestBody: {
          content: {
            'application/json': {
              schema: Type.Object({
                event: Type.Literal(name),
                timestamp: Type.String({ description: 'UTC ISO 8601 with milliseconds' }),
                vault: Type.Object({ name: Type.String(), path: Type.String() }),
                data: entry.data,
              }),
            },
          },
        },
        responses: { '200': { description: 'Any 2xx counts as delivered' } },
      },
    };
  }
  const finished = {
    ...doc,
    servers: [{ url: `http://${displayHost}:${port}`, description: 'This server' }],
    webhooks,
  };
  return hoistNamedSchemas(finished);
}

/**
 * Schemas that carry an `$id` (TaskInfo as `Task`, …) are embedded wherever a route or event
 * uses them; OpenAPI allows each `$id` once. Move the first copy to `components.schemas` and
 * replace every occurrence with a `$ref`, which also keeps the document small.
 */
function hoistNamedSchemas(doc: Record<string, unknown>): Record<string, unknown> {
  const named: Record<string, unknown> = {};
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    const id = obj.$id;
    if (typeof id === 'string' && /^[A-Za-z][\w.-]*$/.test(id)) {
      if (!(id in named)) {
        named[id] = null; // reserve first: a schema may refer to itself
        const { $id: _omit, ...rest } = obj;
        named[id] = walkEntries(rest);
      }
      return { $ref: `#/components/schemas/${id}` };
    }
    return walkEntries(obj);
  };
  const walkEntries = (obj: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, walk(v)]));
  const result = walkEntries(doc);
  const components = (result.components ?? {}) as Record<string, unknown>;
  result.components = {
    ...components,
    schemas: { ...((components.schemas as Record<string, unknown>) ?? {}), ...named },
  };
  return result;
}
