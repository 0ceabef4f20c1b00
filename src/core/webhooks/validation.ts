/**
 * Validation of webhook input, shared by the API routes and the settings page: the same rules
 * and the reference's messages, thrown as INVALID domain errors before anything changes.
 */
import { invalid } from '../errors.js';
import { isEventName } from '../events/catalogue.js';
import { isStandardSecret } from './signer.js';
import type { DeliveryFilter } from './delivery-store.js';
import { DELIVERY_STATUSES, type SigningScheme, type WebhookInput, type WebhookPatch } from './types.js';

/** The longest webhook id (ids are path segments of the webhook routes). */
const MAX_ID_LENGTH = 256;

/** User-facing messages; the HTTP schemas reuse them so every entry point says the same. */
export const WEBHOOK_MESSAGES = {
  url: 'URL is required and must be a string',
  urlFormat: 'URL must be an absolute http:// or https:// URL',
  events: 'Events array is required and must contain valid webhook events',
  id: 'id must be a string',
  idForm: `id must be at most ${MAX_ID_LENGTH} characters and not "deliveries" (the delivery log's path)`,
  secret: 'secret must be a string',
  standardSecret:
    'signing "standard" needs a whsec_ secret (base64 of 24 to 64 bytes); omit the secret to have one generated',
  active: 'active must be a boolean',
  corsHeaders: 'corsHeaders must be a boolean',
  transformFile: 'transformFile must be a string',
  signing: 'signing must be "taskdown" or "standard"',
  retrySchedule:
    'retrySchedule must be a list of at most 20 waits in seconds, each above 0 and at most 604800',
  graceSeconds: 'graceSeconds must be an integer from 0 to 604800',
  deliveryStatus: 'status must be "pending", "success" or "failed"',
  deliveryLimit: 'limit must be an integer from 1 to 1000',
  notFound: 'Webhook not found',
  deliveryNotFound: 'Delivery not found',
  inactive: 'Webhook is inactive; enable it first',
  apiDisabled: 'HTTP API is disabled',
} as const;

export const MAX_DELIVERY_PAGE = 1000;
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [1, 2, 4];
const MAX_RETRIES = 20;
const MAX_WAIT_S = 604_800;

export function checkInput(input: WebhookInput): void {
  if (typeof input !== 'object' || input === null || typeof input.url !== 'string') {
    throw invalid(WEBHOOK_MESSAGES.url, { field: 'url' });
  }
  checkUrl(input.url);
  checkEvents(input.events);
  checkType(input.id, 'string', 'id');
  // Every id must be addressable by /api/webhooks/:id, whose `deliveries` is the delivery log.
  if (typeof input.id === 'string' && (input.id.length > MAX_ID_LENGTH || input.id === 'deliveries')) {
    throw invalid(WEBHOOK_MESSAGES.idForm, { field: 'id' });
  }
  checkType(input.secret, 'string', 'secret');
  checkType(input.active, 'boolean', 'active');
  checkType(input.corsHeaders, 'boolean', 'corsHeaders');
  checkType(input.transformFile, 'string', 'transformFile');
  if (input.signing !== undefined) checkSigning(input.signing);
  if (input.retrySchedule !== undefined) checkRetrySchedule(input.retrySchedule);
  if (input.signing === 'standard' && input.secret) checkStandardSecret(input.secret);
}

export function checkPatch(patch: WebhookPatch): void {
  if (typeof patch !== 'object' || patch === null) throw invalid('Body must be an object');
  if (patch.url !== undefined) {
    if (typeof patch.url !== 'string') throw invalid(WEBHOOK_MESSAGES.url, { field: 'url' });
    checkUrl(patch.url);
  }
  if (patch.events !== undefined) checkEvents(patch.events);
  if (patch.active !== undefined) checkActive(patch.active);
  checkType(patch.corsHeaders, 'boolean', 'corsHeaders');
  if (patch.transformFile !== null) checkType(patch.transformFile, 'string', 'transformFile');
  if (patch.signing !== undefined) checkSigning(patch.signing);
  if (patch.retrySchedule !== undefined) checkRetrySchedule(patch.retrySchedule);
}

export function checkActive(active: unknown): void {
  if (typeof active !== 'boolean') throw invalid(WEBHOOK_MESSAGES.active, { field: 'active' });
}

export function checkStandardSecret(secret: string): void {
  if (!isStandardSecret(secret)) throw invalid(WEBHOOK_MESSAGES.standardSecret, { field: 'secret' });
}

export function checkGraceSeconds(value: unknown): void {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_WAIT_S) {
    throw invalid(WEBHOOK_MESSAGES.graceSeconds, { field: 'graceSeconds' });
  }
}

/** The delivery log's filter (the route's query string, the tool's arguments). */
export function checkDeliveryFilter(filter: Partial<DeliveryFilter>): void {
  const { status, limit } = filter;
  if (status !== undefined && !DELIVERY_STATUSES.includes(status)) {
    throw invalid(WEBHOOK_MESSAGES.deliveryStatus, { field: 'status' });
  }
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERY_PAGE)) {
    throw invalid(WEBHOOK_MESSAGES.deliveryLimit, { field: 'limit' });
  }
}

function checkSigning(value: unknown): asserts value is SigningScheme {
  if (value !== 'taskdown' && value !== 'standard') {
    throw invalid(WEBHOOK_MESSAGES.signing, { field: 'signing' });
  }
}

function checkRetrySchedule(value: unknown): void {
  const ok =
    Array.isArray(value) &&
    value.length <= MAX_RETRIES &&
    value.every((s) => typeof s === 'number' && Number.isFinite(s) && s > 0 && s <= MAX_WAIT_S);
  if (!ok) throw invalid(WEBHOOK_MESSAGES.retrySchedule, { field: 'retrySchedule' });
}

function checkUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw invalid(WEBHOOK_MESSAGES.urlFormat, { field: 'url' });
  }
}

function checkEvents(events: unknown): void {
  if (!Array.isArray(events) || events.length === 0 || !events.every(isEventName)) {
    throw invalid(WEBHOOK_MESSAGES.events, { field: 'events' });
  }
}

function checkType(
  value: unknown,
  type: 'string' | 'boolean',
  field: 'id' | 'secret' | 'active' | 'corsHeaders' | 'transformFile',
): void {
  if (value !== undefined && typeof value !== type) throw invalid(WEBHOOK_MESSAGES[field], { field });
}
