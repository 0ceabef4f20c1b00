/**
 * "Webhooks": one card per webhook, the "Add webhook" dialog (the secret is shown once after
 * creation), edit, enable/disable, send a test event, delete with confirmation, and the delivery
 * log with each delivery's attempts and Redeliver. Cards and log reload when the server says
 * deliveries changed (use-activity.ts), so counters and new deliveries appear without polling.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, messageOf } from '../api.js';
import type { Delivery, Webhook, WebhookList } from '../types.js';
import { useActivity, type LiveState } from '../use-activity.js';
import type { WebhookDraft } from '../validate.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { DeliveryDetails } from './delivery-details.js';
import { DeliveryLog } from './delivery-log.js';
import { useNotify } from './notices.js';
import { RevealDialog } from './reveal-dialog.js';
import { Switch } from './switch.js';
import { WebhookCard } from './webhook-card.js';
import { WebhookForm } from './webhook-form.js';

const LIVE_LABEL: Record<LiveState, string> = {
  live: 'live',
  connecting: 'reconnecting…',
  paused: 'paused',
};

type Dialogs =
  | { kind: 'none' }
  | { kind: 'add' }
  | { kind: 'secret'; secret: string }
  | { kind: 'edit'; webhook: Webhook }
  | { kind: 'delete'; webhook: Webhook }
  | { kind: 'delivery'; id: string };

const toBody = (draft: WebhookDraft) => ({
  url: draft.url,
  events: draft.events,
  // Empty means "no transform"; the backend removes the setting.
  transformFile: draft.transformFile,
  corsHeaders: draft.corsHeaders,
});

export function WebhooksSection() {
  const notify = useNotify();
  const [list, setList] = useState<WebhookList | null>(null);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialogs>({ kind: 'none' });
  const [liveUpdates, setLiveUpdates] = useState(true);
  const [refreshedAt, setRefreshedAt] = useState<Date | null>(null);

  const load = useCallback(async () => {
    try {
      const [next, log] = await Promise.all([
        call<WebhookList>('GET', '/webhooks'),
        call<{ deliveries: Delivery[] }>('GET', '/webhooks/deliveries'),
      ]);
      setList(next);
      setDeliveries(log.deliveries);
      setLoadError(null);
      setRefreshedAt(new Date());
    } catch (err) {
      setLoadError(messageOf(err));
    }
  }, []);

  useEffect(() => void load(), [load]);
  // Counts the server's activity notices: an open delivery dialog reloads on each, so an attempt
  // made after its Redeliver returned (the attempt runs later) still shows.
  const [activity, setActivity] = useState(0);
  const live = useActivity(() => {
    void load();
    setActivity((n) => n + 1);
  }, liveUpdates);

  const create = async (draft: WebhookDraft): Promise<void> => {
    const { webhook } = await call<{ webhook: Webhook & { secret: string } }>(
      'POST',
      '/webhooks',
      toBody(draft),
    );
    setDialog({ kind: 'secret', secret: webhook.secret });
    notify('Webhook created successfully');
    await load();
  };

  const save = async (id: string, draft: WebhookDraft): Promise<void> => {
    await call('PUT', `/webhooks/${encodeURIComponent(id)}`, toBody(draft));
    setDialog({ kind: 'none' });
    notify('Webhook updated');
    await load();
  };

  const toggle = async (webhook: Webhook, active: boolean): Promise<void> => {
    try {
      await call('PUT', `/webhooks/${encodeURIComponent(webhook.id)}/active`, { active });
      notify(active ? 'Webhook enabled' : 'Webhook disabled');
      await load();
    } catch (err) {
      notify(messageOf(err), 'error');
    }
  };

  const ping = async (webhook: Webhook): Promise<void> => {
    try {
      const { delivery } = await call<{ delivery: Delivery }>(
        'POST',
        `/webhooks/${encodeURIComponent(webhook.id)}/ping`,
      );
      notify(`Test event sent (${delivery.id})`);
      await load();
    } catch (err) {
      notify(messageOf(err), 'error');
    }
  };

  const redeliver = async (id: string): Promise<void> => {
    try {
      await call('POST', `/webhooks/deliveries/${encodeURIComponent(id)}/redeliver`);
      notify(`Delivery ${id} sent again`);
      await load();
    } catch (err) {
      notify(messageOf(err), 'error');
    }
  };

  const remove = async (webhook: Webhook): Promise<void> => {
    await call('DELETE', `/webhooks/${encodeURIComponent(webhook.id)}`);
    notify('Webhook deleted');
    await load();
  };

  const close = () => setDialog({ kind: 'none' });
  const webhooks = list?.webhooks ?? [];

  return (
    <>
      <section class="section" aria-labelledby="webhooks-title" id="webhooks">
        <div class="section-head">
          <h2 id="webhooks-title">Webhooks</h2>
          <button
            type="button"
            class="button primary"
            onClick={() => setDialog({ kind: 'add' })}
            disabled={!list}
          >
            Add webhook
          </button>
        </div>
        <p class="hint">
          Signed HTTP POSTs to your URLs when tasks, time tracking, pomodoro sessions, recurring instances or
          reminders change. The API and this page manage the same webhooks.
        </p>
        {loadError && (
          <p class="error" role="alert">
            Could not load webhooks: {loadError}
          </p>
        )}
        {list && webhooks.length === 0 && <p class="empty">No webhooks yet.</p>}
        <div class="cards">
          {webhooks.map((webhook) => (
            <WebhookCard
              key={webhook.id}
              webhook={webhook}
              onToggle={(active) => toggle(webhook, active)}
              onEdit={() => setDialog({ kind: 'edit', webhook })}
              onDelete={() => setDialog({ kind: 'delete', webhook })}
              onPing={() => ping(webhook)}
            />
          ))}
        </div>
      </section>

      <section class="section" aria-labelledby="deliveries-title" id="deliveries">
        <div class="section-head">
          <h2 id="deliveries-title">Delivery log</h2>
          <button type="button" class="button" onClick={() => void load()}>
            Refresh now
          </button>
        </div>
        <div class="log-controls">
          <Switch label="Live updates" checked={liveUpdates} onChange={setLiveUpdates} />
          <p class="hint">
            The last 100 deliveries, kept by the server for 7 days (or 10,000 deliveries)
            {refreshedAt && ` · updated ${refreshedAt.toLocaleTimeString()}`} ·{' '}
            <span data-live={live}>{LIVE_LABEL[live]}</span>
          </p>
        </div>
        <DeliveryLog
          deliveries={deliveries}
          webhooks={webhooks}
          onDetails={(id) => setDialog({ kind: 'delivery', id })}
          onRedeliver={redeliver}
        />
      </section>

      {dialog.kind === 'add' && list && (
        <WebhookForm eventNames={list.eventNames} onSubmit={create} onClose={close} />
      )}
      {dialog.kind === 'edit' && list && (
        <WebhookForm
          initial={dialog.webhook}
          eventNames={list.eventNames}
          onSubmit={(draft) => save(dialog.webhook.id, draft)}
          onClose={close}
        />
      )}
      {dialog.kind === 'secret' && (
        <RevealDialog
          title="Webhook Secret Generated"
          label="Webhook secret"
          value={dialog.secret}
          explanation="Receivers use this secret to verify the X-Service-Signature header (HMAC-SHA256 of the body). Copy it now: it will not be shown again."
          onClose={close}
        />
      )}
      {dialog.kind === 'delivery' && (
        <DeliveryDetails deliveryId={dialog.id} activity={activity} onRedeliver={redeliver} onClose={close} />
      )}
      {dialog.kind === 'delete' && (
        <ConfirmDialog
          title="Delete webhook"
          message={[
            'Are you sure you want to delete this webhook?',
            `URL: ${dialog.webhook.url}`,
            'This action cannot be undone.',
          ]}
          confirmLabel="Delete"
          onConfirm={() => remove(dialog.webhook)}
          onClose={close}
        />
      )}
    </>
  );
}
