/**
 * One webhook (as on the TaskNotes plugin's settings page): URL, active/inactive, success and failure counts, events,
 * transform file or "Raw payload (no transform)", a warning when custom headers are off, and
 * the enable switch, edit and delete.
 */
import { useUniqueId } from '../use-unique-id.js';
import { dateTime, timeAgo } from '../format.js';
import type { Webhook } from '../types.js';
import { Switch } from './switch.js';

export interface WebhookCardProps {
  webhook: Webhook;
  onToggle: (active: boolean) => Promise<void>;
  onEdit: () => void;
  onDelete: () => void;
  onPing: () => Promise<void>;
}

export function WebhookCard({ webhook, onToggle, onEdit, onDelete, onPing }: WebhookCardProps) {
  const titleId = useUniqueId('webhook');
  const warningId = `${titleId}-warning`;
  return (
    <article class="card webhook" aria-labelledby={titleId} data-webhook-id={webhook.id}>
      <header class="card-head">
        <h3 id={titleId} class="url mono">
          {webhook.url || '(no URL)'}
        </h3>
        <p class="meta">
          <span title={dateTime(webhook.createdAt)}>Created {timeAgo(webhook.createdAt)}</span>
          {' · '}
          <span class="mono">{webhook.id}</span>
        </p>
        <ul class="badges" aria-label="Status">
          <li class={`badge ${webhook.active ? 'ok' : 'off'}`}>{webhook.active ? 'Active' : 'Inactive'}</li>
          <li class="badge">Success: {webhook.successCount}</li>
          <li class={`badge ${webhook.failureCount > 0 ? 'bad' : ''}`}>Failed: {webhook.failureCount}</li>
        </ul>
      </header>

      {!webhook.corsHeaders && (
        <p class="warning" id={warningId}>
          <strong>Custom headers are disabled.</strong> Deliveries carry only Content-Type: no
          X-Service-Event, X-Service-Signature or X-Service-Delivery-ID, so the receiver cannot verify the
          signature.
        </p>
      )}

      <dl class="facts">
        <div>
          <dt>Events</dt>
          <dd>
            {webhook.events.length === 0 ? (
              'No events selected'
            ) : (
              <ul class="badges" aria-label="Subscribed events">
                {webhook.events.map((name) => (
                  <li class="badge event mono" key={name}>
                    {name}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div>
          <dt>Transform</dt>
          <dd class={webhook.transformFile ? 'mono' : undefined}>
            {webhook.transformFile || 'Raw payload (no transform)'}
          </dd>
        </div>
        <div>
          <dt>Signing</dt>
          <dd>
            {webhook.signing === 'standard' ? 'Standard Webhooks (webhook-signature)' : 'X-Service-Signature'}
            {webhook.previousSecretExpiresAt &&
              ` · previous secret valid until ${dateTime(webhook.previousSecretExpiresAt)}`}
          </dd>
        </div>
        <div>
          <dt>Retries after</dt>
          <dd>
            {webhook.retrySchedule.length === 0
              ? 'no retries'
              : webhook.retrySchedule.map((s) => `${s} s`).join(', ')}
          </dd>
        </div>
        <div>
          <dt>Last success</dt>
          <dd>{webhook.lastTriggered ? dateTime(webhook.lastTriggered) : 'never'}</dd>
        </div>
      </dl>

      {!webhook.active && (
        <p class="hint">Inactive: it receives no deliveries. Enabling it resets the failure count to 0.</p>
      )}

      <div class="card-actions">
        <Switch
          label="Enabled"
          srDetail={webhook.url}
          checked={webhook.active}
          onChange={onToggle}
          describedBy={webhook.corsHeaders ? undefined : warningId}
        />
        <div class="actions">
          <button type="button" class="button" onClick={() => void onPing()} disabled={!webhook.active}>
            Send test event<span class="visually-hidden"> to {webhook.url}</span>
          </button>
          <button type="button" class="button" onClick={onEdit}>
            Edit<span class="visually-hidden"> webhook {webhook.url}</span>
          </button>
          <button type="button" class="button danger" onClick={onDelete}>
            Delete<span class="visually-hidden"> webhook {webhook.url}</span>
          </button>
        </div>
      </div>
    </article>
  );
}
