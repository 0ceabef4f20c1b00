/**
 * The open event streams of one server (`GET /api/events` and the settings page's delivery
 * activity), so shutdown can end them (an open stream would otherwise hold its connection until
 * the drain limit), a change of the rules that let them in can end them (see app.ts), and tests
 * can count them.
 */
import type { ActivityListener } from '../../core/webhooks/activity.js';
import type { RouteArea } from '../gates/area.js';
import { ActivityStream } from './activity-stream.js';
import { JournalStream, type JournalStreamOptions } from './journal-stream.js';
import type { SseStream } from './sse-stream.js';

export class EventStreamHub {
  /** Each open stream and the area of the route that opened it (the gates it passed). */
  private readonly open = new Map<SseStream, RouteArea>();

  constructor(private readonly defaults: Pick<JournalStreamOptions, 'journal' | 'clock' | 'log'>) {}

  /** A new stream of the journal after `after`, only `names` when given (`GET /api/events`). */
  stream(after: number, names: readonly string[] | undefined): JournalStream {
    return this.track(new JournalStream({ ...this.defaults, after, names }), 'api');
  }

  /** A new stream of which webhooks' deliveries changed (the settings page's). */
  activity(subscribe: (listener: ActivityListener) => () => void): ActivityStream {
    const { clock, log } = this.defaults;
    return this.track(new ActivityStream({ subscribe, clock, log }), 'settings');
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every stream, or those opened in one area; their clients see the end of the response. */
  finishAll(area?: RouteArea): void {
    for (const [stream, opened] of this.open) if (area === undefined || opened === area) stream.finish();
  }

  private track<S extends SseStream>(stream: S, area: RouteArea): S {
    this.open.set(stream, area);
    stream.once('close', () => this.open.delete(stream));
    return stream;
  }
}
