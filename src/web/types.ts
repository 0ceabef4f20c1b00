/** Shapes the settings backend returns; the stored shapes come from the domain's own types. */
import type { ApiAccessStatus } from '../core/state/api-access.js';
import type { SubscriptionStatus } from '../core/calendars/ics-subscriptions.js';
import type { DeliveryDetail as Detail, DeliveryRecord, PublicWebhook } from '../core/webhooks/types.js';

export interface ApiStatus extends ApiAccessStatus {
  host: string;
  port: number;
  version: string;
  vault: { name: string; path: string };
}

/** A webhook as listed: everything but the secret. */
export type Webhook = PublicWebhook;

export interface WebhookList {
  webhooks: Webhook[];
  /** The 14 event names of the catalogue, in catalogue order. */
  eventNames: string[];
}

/** A delivery log entry; the page's log leaves the payload out. */
export type Delivery = Omit<DeliveryRecord, 'payload'>;

/** One delivery with its payload and every attempt. */
export type DeliveryDetail = Detail;

/** A subscription with its fetch state (lastFetched, lastError, lastWarning). */
export type Subscription = SubscriptionStatus;

/** `GET /settings-api/session`: whether the page must ask for the token before anything else. */
export interface Session {
  tokenRequired: boolean;
}
