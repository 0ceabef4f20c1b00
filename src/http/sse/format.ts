/**
 * Server-Sent Events framing. Hand-written: the format is four kinds of line, and the stream's
 * requirements (entries pulled from the event journal at the pace the client reads, a heartbeat
 * on the injected clock) left nothing for an SSE library to do; @fastify/sse awaits each write
 * separately and runs its heartbeat on real timers.
 *
 * Journal envelopes are compact JSON (no newline), so each message has exactly one `data:` line.
 */
import type { JournalEntry } from '../../core/store/event-journal.js';

/** `id:` (the journal sequence number), `event:` (the event name), `data:` (the webhook envelope). */
export const sseMessage = (entry: JournalEntry): string =>
  `id: ${entry.seq}\nevent: ${entry.name}\ndata: ${entry.envelope}\n\n`;

/** A comment: ignored by clients, keeps proxies from closing an idle connection. */
export const sseComment = (text: string): string => `: ${text.replace(/\n/g, ' ')}\n\n`;

/** How long a client waits before reconnecting after the connection drops. */
export const sseRetry = (ms: number): string => `retry: ${ms}\n\n`;
