/**
 * One delivery in full: its payload and every attempt (when, how long, the receiver's status,
 * the error and the start of its answer), with Redeliver. Loaded when opened, and again after a
 * redelivery and whenever the server says deliveries changed (`activity` counts its notices): a
 * redelivery's attempt runs after the request that queued it has answered.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, messageOf } from '../api.js';
import { dateTime } from '../format.js';
import type { DeliveryDetail } from '../types.js';
import { Dialog } from './dialog.js';

export interface DeliveryDetailsProps {
  deliveryId: string;
  /** Changes with every delivery activity notice of the server. */
  activity: number;
  onRedeliver: (id: string) => Promise<void>;
  onClose: () => void;
}

export function DeliveryDetails({ deliveryId, activity, onRedeliver, onClose }: DeliveryDetailsProps) {
  const [delivery, setDelivery] = useState<DeliveryDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const data = await call<{ delivery: DeliveryDetail }>(
        'GET',
        `/webhooks/deliveries/${encodeURIComponent(deliveryId)}`,
      );
      setDelivery(data.delivery);
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [deliveryId]);
  useEffect(() => void load(), [load, activity]);

  const redeliver = async (): Promise<void> => {
    await onRedeliver(deliveryId);
    await load();
  };

  return (
    <Dialog title={`Delivery ${deliveryId}`} onClose={onClose} class="wide">
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {delivery && (
        <>
          <p class="dialog-text">
            <span class="mono">{delivery.event}</span> · {delivery.status} · created{' '}
            {dateTime(delivery.createdAt)}
            {delivery.nextAttempt && ` · next attempt ${dateTime(delivery.nextAttempt)}`}
          </p>
          {delivery.transformError && <p class="warning">Transform: {delivery.transformError}</p>}
          <h3 class="subhead">Attempts</h3>
          {delivery.attemptLog.length === 0 ? (
            <p class="empty">Not attempted yet.</p>
          ) : (
            <div class="table-scroll" role="region" aria-label="Attempts" tabIndex={0}>
              <table class="deliveries attempts">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">Time</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Response</th>
                    <th scope="col">Error</th>
                    <th scope="col">Answer</th>
                  </tr>
                </thead>
                <tbody>
                  {delivery.attemptLog.map((a) => (
                    <tr key={a.attempt}>
                      <td>{a.attempt}</td>
                      <td class="nowrap">{dateTime(a.at)}</td>
                      <td class="nowrap">{a.durationMs} ms</td>
                      <td>
                        <span class={`badge ${a.outcome === 'success' ? 'ok' : 'bad'}`}>{a.outcome}</span>
                      </td>
                      <td>{a.responseStatus ?? '—'}</td>
                      <td class="error-cell">{a.error ?? '—'}</td>
                      <td class="mono answer">{a.responseBody ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3 class="subhead">Payload</h3>
          <pre class="payload mono">{JSON.stringify(delivery.payload, null, 2)}</pre>
        </>
      )}
      <div class="actions">
        <button type="button" class="button" onClick={() => void redeliver()} disabled={!delivery}>
          Redeliver
        </button>
        <button type="button" class="button primary" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}
