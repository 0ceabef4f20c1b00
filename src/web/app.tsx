/**
 * The settings page: HTTP API, webhooks (with the delivery log) and ICS subscriptions. While
 * the server wants a token the page shows only the token prompt.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, call, messageOf, onUnauthorized } from './api.js';
import { ApiSection } from './components/api-section.js';
import { NoticeProvider } from './components/notices.js';
import { SubscriptionsSection } from './components/subscriptions-section.js';
import { TokenPrompt } from './components/token-prompt.js';
import { WebhooksSection } from './components/webhooks-section.js';
import { readToken } from './token-store.js';
import type { ApiStatus, Session } from './types.js';

type State =
  | { kind: 'loading' }
  | { kind: 'locked' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; status: ApiStatus };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  const load = useCallback(async () => {
    try {
      // Without a token, ask whether one is needed: a 401 would be logged in the console.
      if (readToken() === null && (await call<Session>('GET', '/session')).tokenRequired) {
        setState({ kind: 'locked' });
        return;
      }
      setState({ kind: 'ready', status: await call<ApiStatus>('GET', '/api') });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setState({ kind: 'locked' });
      else setState({ kind: 'failed', message: messageOf(err) });
    }
  }, []);

  useEffect(() => {
    void load();
    // Any 401 (the token was changed elsewhere) brings the prompt back.
    return onUnauthorized(() => setState({ kind: 'locked' }));
  }, [load]);

  if (state.kind === 'locked') return <TokenPrompt onUnlocked={() => void load()} />;

  return (
    <NoticeProvider>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class="top-inner">
          <h1>Taskdown settings</h1>
          {state.kind === 'ready' && (
            <p class="meta">
              Vault <span class="mono">{state.status.vault.name}</span> · version {state.status.version}
            </p>
          )}
          <nav aria-label="Sections">
            <a href="#api">HTTP API</a>
            <a href="#webhooks">Webhooks</a>
            <a href="#deliveries">Delivery log</a>
            <a href="#calendars">ICS subscriptions</a>
          </nav>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {state.kind === 'loading' && <p class="empty">Loading…</p>}
        {state.kind === 'failed' && (
          <div class="card">
            <p class="error" role="alert">
              Could not load the settings: {state.message}
            </p>
            <button type="button" class="button" onClick={() => void load()}>
              Try again
            </button>
          </div>
        )}
        {state.kind === 'ready' && (
          <>
            <ApiSection status={state.status} onStatus={(status) => setState({ kind: 'ready', status })} />
            <WebhooksSection />
            <SubscriptionsSection />
          </>
        )}
      </main>
    </NoticeProvider>
  );
}
