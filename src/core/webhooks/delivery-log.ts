/**
 * The delivery history (docs/api-decisions.md): the last 100 deliveries, in memory
 * only, oldest first. The engine keeps mutating a record while it retries, so a listing shows
 * each record as it stands (`pending` mid-retry). A record trimmed from the log still finishes
 * its attempts; it is only no longer listed.
 */
import type { DeliveryRecord, DeliveryStatus } from './types.js';
import type { EventName } from '../events/catalogue.js';

export const DELIVERY_LOG_SIZE = 100;

/** The engine's working record: the body is kept as the exact text that is signed and sent. */
export interface LiveDelivery {
  id: string;
  webhookId: string;
  event: EventName;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttempt?: string;
  responseStatus?: number;
  error?: string;
  transformError?: string;
  createdAt: string;
}

export class DeliveryLog {
  /** A ring: fixed slots overwritten in turn, so adding never moves or reallocates anything. */
  private readonly slots: Array<LiveDelivery | undefined>;
  private next = 0;
  private count = 0;

  constructor(private readonly capacity = DELIVERY_LOG_SIZE) {
    this.slots = new Array<LiveDelivery | undefined>(capacity).fill(undefined);
  }

  add(record: LiveDelivery): void {
    this.slots[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** Snapshot for listing, oldest first; `payload` is parsed back from the body actually sent. */
  list(): DeliveryRecord[] {
    const out: DeliveryRecord[] = [];
    const first = (this.next - this.count + this.capacity) % this.capacity;
    for (let i = 0; i < this.count; i++) {
      out.push(toRecord(this.slots[(first + i) % this.capacity] as LiveDelivery));
    }
    return out;
  }
}

function toRecord(live: LiveDelivery): DeliveryRecord {
  const record: DeliveryRecord = {
    id: live.id,
    webhookId: live.webhookId,
    event: live.event,
    payload: JSON.parse(live.body) as unknown,
    status: live.status,
    attempts: live.attempts,
    createdAt: live.createdAt,
  };
  if (live.lastAttempt !== undefined) record.lastAttempt = live.lastAttempt;
  if (live.responseStatus !== undefined) record.responseStatus = live.responseStatus;
  if (live.error !== undefined) record.error = live.error;
  if (live.transformError !== undefined) record.transformError = live.transformError;
  return record;
}
