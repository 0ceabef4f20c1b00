/**
 * The delivery log: the last 100 deliveries kept by the server, newest first, with status,
 * attempts, the receiver's HTTP status and the last error, and per delivery a Details button
 * (its attempts and payload) and Redeliver. The parent refreshes it.
 */
import { dateTime } from '../format.js';
import type { Delivery, Webhook } from '../types.js';

export interface DeliveryLogProps {
  deliveries: Delivery[];
  webhooks: Webhook[];
  onDetails: (id: string) => void;
  onRedeliver: (id: string) => Promise<void>;
}

export function DeliveryLog({ deliveries, webhooks, onDetails, onRedeliver }: DeliveryLogProps) {
  const urlOf = new Map(webhooks.map((w) => [w.id, w.url]));
  if (deliveries.length === 0) return <p class="empty">No deliveries yet.</p>;
  const newestFirst = [...deliveries].reverse();
  return (
    // Focusable so keyboard users can scroll the table sideways on a narrow screen.
    <div class="table-scroll" role="region" aria-label="Delivery log" tabIndex={0}>
      <table class="deliveries">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Event</th>
            <th scope="col">Webhook</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Response</th>
            <th scope="col">Error</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {newestFirst.map((d) => (
            <tr key={d.id} data-delivery-id={d.id}>
              <td class="nowrap">{dateTime(d.createdAt)}</td>
              <td class="mono">{d.event}</td>
              <td class="mono url">{urlOf.get(d.webhookId) ?? `${d.webhookId} (deleted)`}</td>
              <td>
                <span class={`badge ${d.status === 'success' ? 'ok' : d.status === 'failed' ? 'bad' : ''}`}>
                  {d.status}
                </span>
              </td>
              <td>{d.attempts}</td>
              <td>{d.responseStatus ?? '—'}</td>
              <td class="error-cell">
                {[d.error, d.transformError && `Transform: ${d.transformError}`]
                  .filter(Boolean)
                  .join(' · ') || '—'}
              </td>
              <td class="nowrap">
                <button type="button" class="button small" onClick={() => onDetails(d.id)}>
                  Details<span class="visually-hidden"> of delivery {d.id}</span>
                </button>{' '}
                <button
                  type="button"
                  class="button small"
                  onClick={() => void onRedeliver(d.id)}
                  disabled={!urlOf.has(d.webhookId)}
                >
                  Redeliver<span class="visually-hidden"> delivery {d.id}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
