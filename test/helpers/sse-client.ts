/**
 * A client of a server-sent event stream for unit tests: a Writable that parses what it is given
 * with eventsource-parser; constructed with `reading` false it leaves written data unconsumed
 * (a client that stopped reading) until `resume()`.
 */
import { Writable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export class SseClient extends Writable {
  readonly messages: EventSourceMessage[] = [];
  comments: string[] = [];
  private pending: Array<() => void> = [];
  private readonly parser = createParser({
    onEvent: (m) => this.messages.push(m),
    onComment: (c) => this.comments.push(c.trim()),
  });
  constructor(private reading = true) {
    super({ highWaterMark: 1024 });
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    const consume = (): void => {
      this.parser.feed(chunk.toString());
      done();
    };
    if (this.reading) consume();
    else this.pending.push(consume);
  }
  resume(): void {
    this.reading = true;
    for (const consume of this.pending.splice(0)) consume();
  }
  ids(): number[] {
    return this.messages.map((m) => Number(m.id));
  }
}
