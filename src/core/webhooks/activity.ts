/**
 * Tells listeners which webhooks' deliveries just changed: created for an event, an attempt's
 * outcome committed, sent again, or ended because their webhook changed. The settings page's live
 * delivery log listens (GET /settings-api/webhooks/activity) and reloads only then, instead of
 * polling the log every few seconds.
 *
 * Carries only webhook ids, never deliveries: a listener reads what it shows from the delivery
 * store, so a missed or merged notice costs nothing but a later reload.
 */
export type ActivityListener = (webhookIds: readonly string[]) => void;

export class DeliveryActivity {
  private readonly listeners = new Set<ActivityListener>();

  subscribe(listener: ActivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(webhookIds: Iterable<string>): void {
    if (this.listeners.size === 0) return;
    const ids = [...new Set(webhookIds)];
    if (ids.length === 0) return;
    for (const listener of this.listeners) listener(ids);
  }
}
