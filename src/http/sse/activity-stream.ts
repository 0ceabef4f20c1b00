/**
 * The settings page's live delivery log: `event: deliveries` with `data: {"webhookIds": […]}`
 * whenever deliveries of those webhooks changed (core/webhooks/activity.ts), so the page reloads
 * its log and cards only then instead of polling them.
 *
 * Notices are merged: at most one message per `mergeMs`, naming every webhook that changed
 * meanwhile, so a burst of a thousand deliveries makes the page reload a few times, not a
 * thousand. A client that is not reading collects the ids (one entry per webhook at most) and gets
 * them in one message when it reads again. No ids and no replay: the page loads the whole log
 * when it connects.
 */
import type { TimerHandle } from '../../core/clock.js';
import type { ActivityListener } from '../../core/webhooks/activity.js';
import { SseStream, type SseStreamOptions } from './sse-stream.js';

export interface ActivityStreamOptions extends SseStreamOptions {
  subscribe(listener: ActivityListener): () => void;
  mergeMs?: number;
}

export const MERGE_MS = 250;

export class ActivityStream extends SseStream {
  private readonly changed = new Set<string>();
  private timer: TimerHandle | undefined;
  private readonly unsubscribe: () => void;
  private readonly mergeMs: number;

  constructor(options: ActivityStreamOptions) {
    super(options);
    this.mergeMs = options.mergeMs ?? MERGE_MS;
    this.unsubscribe = options.subscribe((ids) => this.onActivity(ids));
  }

  protected pump(): void {
    if (this.changed.size === 0 || this.timer) {
      this.waiting = true;
      return;
    }
    this.waiting = true;
    this.flush();
  }

  protected release(): void {
    this.unsubscribe();
    this.timer?.cancel();
    this.timer = undefined;
  }

  private onActivity(ids: readonly string[]): void {
    for (const id of ids) this.changed.add(id);
    this.timer ??= this.sse.clock.setTimer(this.mergeMs, () => {
      this.timer = undefined;
      this.flush();
    });
  }

  /** Sends what changed, when the client is waiting; else it stays collected for its next read. */
  private flush(): void {
    if (this.changed.size === 0) return;
    const data = JSON.stringify({ webhookIds: [...this.changed] });
    if (this.send(`event: deliveries\ndata: ${data}\n\n`)) this.changed.clear();
  }
}
