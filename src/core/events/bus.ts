/**
 * The domain event bus. Services emit after a change is durable (the note is on disk and the
 * index updated); subscribers such as the webhook engine and the reminder scheduler react.
 *
 * Delivery to listeners is synchronous and isolated: a throwing listener is logged and never
 * affects the emitter or the other listeners. Listeners that do slow work (network) must queue it
 * themselves, which keeps "delivery never blocks the operation" a property of the bus contract.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { EventData, EventName } from './catalogue.js';

export interface DomainEvent<E extends EventName = EventName> {
  name: E;
  data: EventData<E>;
  /** Epoch milliseconds at which the change happened. */
  at: number;
}

type Listener<E extends EventName> = (event: DomainEvent<E>) => void;
type AnyListener = (event: DomainEvent) => void;

export class EventBus {
  private readonly byName = new Map<EventName, Set<AnyListener>>();
  private readonly wildcard = new Set<AnyListener>();

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  emit<E extends EventName>(name: E, data: EventData<E>): void {
    const event = { name, data, at: this.clock.now() } as DomainEvent;
    for (const listener of [...(this.byName.get(name) ?? []), ...this.wildcard]) {
      try {
        listener(event);
      } catch (err) {
        this.log.error({ err, event: name }, 'event listener failed');
      }
    }
  }

  /** Subscribes to one event name; returns the unsubscribe function. */
  on<E extends EventName>(name: E, listener: Listener<E>): () => void {
    let set = this.byName.get(name);
    if (!set) this.byName.set(name, (set = new Set()));
    set.add(listener as AnyListener);
    return () => set.delete(listener as AnyListener);
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  onAny(listener: AnyListener): () => void {
    this.wildcard.add(listener);
    return () => this.wildcard.delete(listener);
  }
}
