/**
 * A route is one declaration: method, URL, TypeBox schemas and a handler. The schemas validate
 * requests (Ajv), type the handler's input (TypeBox's Static) and become the OpenAPI document
 * (@fastify/swagger), so the three can never disagree.
 *
 * Handlers return the payload for the `{success:true,data}` envelope (or a raw body for the docs
 * routes) and throw DomainError/HttpError for failures; the shell builds every response.
 */
import type { Readable } from 'node:stream';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { AppContext } from './context.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  headers: Record<string, string | string[] | undefined>;
}

export interface JsonResult {
  kind?: 'json';
  status: number;
  data: unknown;
  headers?: Record<string, string>;
}

export interface RawResult {
  kind: 'raw';
  status: number;
  /** A Readable is piped to the client (the event stream); Fastify destroys it when the client leaves. */
  body: string | Buffer | Readable;
  contentType: string;
  headers?: Record<string, string>;
}

export type RouteResult = JsonResult | RawResult;

export interface RouteSpec<
  P extends TSchema = TSchema,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
> {
  method: Method;
  url: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  querystring?: Q;
  body?: B;
  /** Data schemas per status code; the shell wraps 2xx ones in the success envelope. */
  responses: Record<number, TSchema>;
  /** Raw responses (the OpenAPI document, HTML, static assets) are not enveloped. */
  raw?: boolean;
  /** Skip the auth gate (static assets that hold no data). Implies `hidden`. */
  public?: boolean;
  /** Leave out of the OpenAPI document (asset routes, not part of the API). */
  hidden?: boolean;
  /**
   * The handler answers a change whose events could not be recorded in its own protocol (MCP:
   * a tool error), so the route does not turn it into 503 (see EventJournal.recording).
   */
  answersLostEvents?: boolean;
  handler: (input: RouteInput<Static<P>, Static<Q>, Static<B>>, ctx: AppContext) => Promise<RouteResult>;
}

/** Identity function that gives the handler its typed input. */
export function defineRoute<P extends TSchema, Q extends TSchema, B extends TSchema>(
  spec: RouteSpec<P, Q, B>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}

export const ok = (data: unknown, headers?: Record<string, string>): JsonResult => ({
  status: 200,
  data,
  headers,
});
export const created = (data: unknown): JsonResult => ({ status: 201, data });

/** Schema helpers shared by route files. */
export const IdParams = Type.Object({
  id: Type.String({ description: 'Vault-relative note path including .md, URL-encoded (%2F for /)' }),
});
export const MessageData = Type.Object({ message: Type.String() });
export const ErrorBody = Type.Object(
  { success: Type.Literal(false), error: Type.String() },
  { $id: 'Error', description: 'Error envelope' },
);
