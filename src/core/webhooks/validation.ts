/**
 * Validation of webhook input, shared by the API route and the settings page: the same rules
 * and the reference's messages, thrown as INVALID domain errors before anything changes.
 */
import { invalid } from '../errors.js';
import { isEventName } from '../events/catalogue.js';
import type { WebhookInput, WebhookPatch } from './types.js';

/** User-facing messages; the HTTP schema reuses them so both entry points say the same. */
export const WEBHOOK_MESSAGES = {
  url: 'URL is required and must be a string',
  urlFormat: 'URL must be an absolute http:// or https:// URL',
  events: 'Events array is required and must contain valid webhook events',
  id: 'id must be a string',
  secret: 'secret must be a string',
  active: 'active must be a boolean',
  corsHeaders: 'corsHeaders must be a boolean',
  transformFile: 'transformFile must be a string',
  notFound: 'Webhook not found',
} as const;

export function checkInput(input: WebhookInput): void {
  if (typeof input !== 'object' || input === null || typeof input.url !== 'string') {
    throw invalid(WEBHOOK_MESSAGES.url, { field: 'url' });
  }
  checkUrl(input.url);
  checkEvents(input.events);
  checkType(input.id, 'string', 'id');
  checkType(input.secret, 'string', 'secret');
  checkType(input.active, 'boolean', 'active');
  checkType(input.corsHeaders, 'boolean', 'corsHeaders');
  checkType(input.transformFile, 'string', 'transformFile');
}

export function checkPatch(patch: WebhookPatch): void {
  if (patch.url !== undefined) {
    if (typeof patch.url !== 'string') throw invalid(WEBHOOK_MESSAGES.url, { field: 'url' });
    checkUrl(patch.url);
  }
  if (patch.events !== undefined) checkEvents(patch.events);
  checkType(patch.corsHeaders, 'boolean', 'corsHeaders');
  if (patch.transformFile !== null) checkType(patch.transformFile, 'string', 'transformFile');
}

export function checkActive(active: unknown): void {
  if (typeof active !== 'boolean') throw invalid(WEBHOOK_MESSAGES.active, { field: 'active' });
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
