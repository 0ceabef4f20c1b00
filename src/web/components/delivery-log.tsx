/**
 * The delivery log: the last 100 deliveries kept by the server (in memory), newest first, with
 * status, attempts, the receiver's HTTP status and the last error. The parent refreshes it.
 */
import { dateTime } from '../format.js';
import type { Delivery, Webhook } from '../types.js';

export interface DeliveryLogProps {
  deliveries: Delivery[];
  webhooks: Webhook[];
}

export function DeliveryLog({ deliveries, webhooks }: DeliveryLogProps) {
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
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
