/**
 * The open event streams of one server (`GET /api/events` and the settings page's delivery
 * activity), so shutdown can end them (an open stream would otherwise hold its connection until
 * the drain limit) and tests can count them.
 */
import type { ActivityListener } from '../../core/webhooks/activity.js';
import { ActivityStream } from './activity-stream.js';
import { JournalStream, type JournalStreamOptions } from './journal-stream.js';
import type { SseStream } from './sse-stream.js';

export class EventStreamHub {
  private readonly open = new Set<SseStream>();

  constructor(private readonly defaults: Pick<JournalStreamOptions, 'journal' | 'clock' | 'log'>) {}

  /** A new stream of the journal after `after`, only `names` when given. */
  stream(after: number, names: readonly string[] | undefined): JournalStream {
    return this.track(new JournalStream({ ...this.defaults, after, names }));
  }

  /** A new stream of which webhooks' deliveries changed. */
  activity(subscribe: (listener: ActivityListener) => () => void): ActivityStream {
    const { clock, log } = this.defaults;
    return this.track(new ActivityStream({ subscribe, clock, log }));
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every stream; their clients see the end of the response. */
  finishAll(): void {
    for (const stream of this.open) stream.finish();
  }

  private track<S extends SseStream>(stream: S): S {
    this.open.add(stream);
    stream.once('close', () => this.open.delete(stream));
    return stream;
  }
}
