/**
 * Follows the server's delivery activity stream (`GET /settings-api/webhooks/activity`) and calls
 * `onChange` when deliveries changed, and once on every (re)connection, since notices sent while
 * disconnected are not replayed. Reconnects after a drop with a growing wait (1 s, doubling, at
 * most 30 s). A 401 locks the page (api.ts) rather than retrying.
 *
 * fetch rather than EventSource: EventSource cannot send the Authorization header the API token
 * needs. The stream is parsed with eventsource-parser.
 */
import { createParser } from 'eventsource-parser';
import { useEffect, useRef, useState } from 'preact/hooks';
import { noteUnauthorized } from './api.js';
import { readToken } from './token-store.js';

export type LiveState = 'connecting' | 'live' | 'paused';

const FIRST_WAIT_MS = 1000;
const MAX_WAIT_MS = 30_000;

export function useActivity(onChange: () => void, enabled: boolean): LiveState {
  const latest = useRef(onChange);
  latest.current = onChange;
  const [state, setState] = useState<LiveState>(enabled ? 'connecting' : 'paused');

  useEffect(() => {
    if (!enabled) {
      setState('paused');
      return;
    }
    const abort = new AbortController();
    let wait = FIRST_WAIT_MS;
    let retry: ReturnType<typeof setTimeout> | undefined;

    const connect = async (): Promise<void> => {
      setState('connecting');
      try {
        const token = readToken();
        const res = await fetch('/settings-api/webhooks/activity', {
          headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          cache: 'no-store',
          signal: abort.signal,
        });
        if (res.status === 401) {
          // Retrying would only count as failed logins: the page asks for the token instead.
          noteUnauthorized(token);
          return;
        }
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        setState('live');
        wait = FIRST_WAIT_MS;
        latest.current();
        const parser = createParser({
          onEvent: (message) => {
            if (message.event === 'deliveries') latest.current();
          },
        });
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        // Dropped, refused or aborted: the same way back (unless the page left).
      }
      if (abort.signal.aborted) return;
      setState('connecting');
      retry = setTimeout(() => void connect(), wait);
      wait = Math.min(wait * 2, MAX_WAIT_MS);
    };

    void connect();
    return () => {
      abort.abort();
      clearTimeout(retry);
    };
  }, [enabled]);

  return state;
}
