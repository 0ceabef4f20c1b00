/**
 * The open event streams of one server, so shutdown can end them (an open stream would otherwise
 * hold its connection until the drain limit) and tests can count them.
 */
import { JournalStream, type JournalStreamOptions } from './journal-stream.js';

export class EventStreamHub {
  private readonly open = new Set<JournalStream>();

  constructor(private readonly defaults: Pick<JournalStreamOptions, 'journal' | 'clock' | 'log'>) {}

  /** A new stream of the journal after `after`, only `names` when given. */
  stream(after: number, names: readonly string[] | undefined): JournalStream {
    const stream = new JournalStream({ ...this.defaults, after, names });
    this.open.add(stream);
    stream.once('close', () => this.open.delete(stream));
    return stream;
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every stream; their clients see the end of the response. */
  finishAll(): void {
    for (const stream of this.open) stream.finish();
  }
}
