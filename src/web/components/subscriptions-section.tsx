/**
 * "ICS subscriptions": calendar feeds (remote or a vault file) with add, edit, remove (confirmed)
 * and refresh, showing when each was last fetched and its last error.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, messageOf } from '../api.js';
import { dateTime, timeAgo } from '../format.js';
import type { Subscription } from '../types.js';
import type { SubscriptionDraft } from '../validate.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { useNotify } from './notices.js';
import { SubscriptionForm } from './subscription-form.js';

type Dialogs =
  | { kind: 'none' }
  | { kind: 'add' }
  | { kind: 'edit'; subscription: Subscription }
  | { kind: 'remove'; subscription: Subscription };

/** Only the chosen source is sent: a remote feed has a URL, a local one a vault file. */
const toBody = (draft: SubscriptionDraft) => ({
  name: draft.name.trim(),
  type: draft.type,
  ...(draft.type === 'remote' ? { url: draft.url.trim() } : { filePath: draft.filePath.trim() }),
  color: draft.color,
  enabled: draft.enabled,
  refreshInterval: Number(draft.refreshInterval),
});

const path = (id: string, suffix = '') => `/calendars/subscriptions/${encodeURIComponent(id)}${suffix}`;

export function SubscriptionsSection() {
  const notify = useNotify();
  const [subscriptions, setSubscriptions] = useState<Subscription[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialogs>({ kind: 'none' });
  const [refreshing, setRefreshing] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const data = await call<{ subscriptions: Subscription[] }>('GET', '/calendars/subscriptions');
      setSubscriptions(data.subscriptions);
      setLoadError(null);
    } catch (err) {
      setLoadError(messageOf(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const add = async (draft: SubscriptionDraft): Promise<void> => {
    await call('POST', '/calendars/subscriptions', toBody(draft));
    setDialog({ kind: 'none' });
    notify('Subscription added');
    await load();
  };
  const save = async (id: string, draft: SubscriptionDraft): Promise<void> => {
    await call('PUT', path(id), toBody(draft));
    setDialog({ kind: 'none' });
    notify('Subscription updated');
    await load();
  };
  const remove = async (id: string): Promise<void> => {
    await call('DELETE', path(id));
    notify('Subscription removed');
    await load();
  };
  const refresh = async (sub: Subscription): Promise<void> => {
    setRefreshing(sub.id);
    try {
      const { subscription } = await call<{ subscription: Subscription }>('POST', path(sub.id, '/refresh'));
      // A feed that cannot be fetched is not an HTTP error: the service reports it in lastError.
      if (subscription.lastError) notify(`Refresh of ${sub.name} failed: ${subscription.lastError}`, 'error');
      else if (subscription.lastWarning) notify(`Refreshed ${sub.name}; ${subscription.lastWarning}`);
      else notify(`Refreshed ${sub.name}`);
    } catch (err) {
      notify(messageOf(err), 'error');
    } finally {
      setRefreshing(null);
      await load();
    }
  };
  const close = () => setDialog({ kind: 'none' });

  return (
    <section class="section" aria-labelledby="ics-title" id="calendars">
      <div class="section-head">
        <h2 id="ics-title">ICS subscriptions</h2>
        <button type="button" class="button primary" onClick={() => setDialog({ kind: 'add' })}>
          Add subscription
        </button>
      </div>
      <p class="hint">Calendar feeds whose events appear in GET /api/calendars/events.</p>
      {loadError && (
        <p class="error" role="alert">
          Could not load subscriptions: {loadError}
        </p>
      )}
      {subscriptions && subscriptions.length === 0 && <p class="empty">No subscriptions yet.</p>}
      <div class="cards">
        {(subscriptions ?? []).map((sub) => (
          <SubscriptionCard
            key={sub.id}
            subscription={sub}
            refreshing={refreshing === sub.id}
            onRefresh={() => void refresh(sub)}
            onEdit={() => setDialog({ kind: 'edit', subscription: sub })}
            onRemove={() => setDialog({ kind: 'remove', subscription: sub })}
          />
        ))}
      </div>
      {dialog.kind === 'add' && <SubscriptionForm onSubmit={add} onClose={close} />}
      {dialog.kind === 'edit' && (
        <SubscriptionForm
          initial={dialog.subscription}
          onSubmit={(draft) => save(dialog.subscription.id, draft)}
          onClose={close}
        />
      )}
      {dialog.kind === 'remove' && (
        <ConfirmDialog
          title="Remove subscription"
          message={[`Remove the calendar subscription "${dialog.subscription.name}"?`]}
          confirmLabel="Remove"
          onConfirm={() => remove(dialog.subscription.id)}
          onClose={close}
        />
      )}
    </section>
  );
}

interface SubscriptionCardProps {
  subscription: Subscription;
  refreshing: boolean;
  onRefresh: () => void;
  onEdit: () => void;
  onRemove: () => void;
}

function SubscriptionCard({
  subscription: sub,
  refreshing,
  onRefresh,
  onEdit,
  onRemove,
}: SubscriptionCardProps) {
  const titleId = `sub-${sub.id}`;
  return (
    <article class="card subscription" aria-labelledby={titleId} data-subscription-id={sub.id}>
      <header class="card-head">
        <h3 id={titleId}>
          <span class="swatch" aria-hidden="true" style={{ '--swatch': sub.color }} />
          {sub.name}
        </h3>
        <ul class="badges" aria-label="Status">
          <li class={`badge ${sub.enabled ? 'ok' : 'off'}`}>{sub.enabled ? 'Enabled' : 'Disabled'}</li>
          <li class="badge">Every {sub.refreshInterval} min</li>
        </ul>
      </header>
      <dl class="facts">
        <div>
          <dt>{sub.type === 'local' ? 'Vault file' : 'Feed URL'}</dt>
          <dd class="mono url">{sub.type === 'local' ? sub.filePath : sub.url}</dd>
        </div>
        <div>
          <dt>Last fetched</dt>
          <dd title={dateTime(sub.lastFetched ?? undefined)}>
            {sub.lastFetched ? timeAgo(sub.lastFetched) : 'never'}
          </dd>
        </div>
        <div>
          <dt>Last error</dt>
          <dd class={sub.lastError ? 'error' : undefined}>{sub.lastError ?? 'none'}</dd>
        </div>
        {sub.lastWarning ? (
          <div>
            <dt>Left out</dt>
            <dd>{sub.lastWarning}</dd>
          </div>
        ) : null}
      </dl>
      <div class="actions">
        <button type="button" class="button" onClick={onRefresh} disabled={refreshing}>
          {refreshing ? 'Refreshing…' : 'Refresh'}
          <span class="visually-hidden"> {sub.name}</span>
        </button>
        <button type="button" class="button" onClick={onEdit}>
          Edit<span class="visually-hidden"> {sub.name}</span>
        </button>
        <button type="button" class="button danger" onClick={onRemove}>
          Remove<span class="visually-hidden"> {sub.name}</span>
        </button>
      </div>
    </article>
  );
}
