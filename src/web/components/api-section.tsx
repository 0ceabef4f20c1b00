/**
 * "HTTP API": the enabled switch (off → /api/* answers 503 and no webhook is delivered), the
 * address, and the bearer token (set, generate, clear). The token is never shown after it is
 * set; a generated one is shown once. A token from the server's command line outranks the
 * stored one, so the token controls are disabled then.
 */
import { useState } from 'preact/hooks';
import { call, messageOf } from '../api.js';
import { writeToken } from '../token-store.js';
import type { ApiStatus } from '../types.js';
import { checkToken } from '../validate.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { useNotify } from './notices.js';
import { RevealDialog } from './reveal-dialog.js';
import { Switch } from './switch.js';
import { TextField } from './text-field.js';

function baseUrl({ host, port }: ApiStatus): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function tokenText(status: ApiStatus): string {
  switch (status.tokenSource) {
    case 'command-line':
      return "A token is set by the server's command line (--token or TASKDOWN_TOKEN). Change it there; it cannot be edited here.";
    case 'settings':
      return 'A token is set. It is never shown again: set or generate a new one to replace it.';
    default:
      return 'No token is set: every program that can reach the server can use the API.';
  }
}

export function ApiSection({ status, onStatus }: { status: ApiStatus; onStatus: (s: ApiStatus) => void }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string | undefined>();
  const [revealed, setRevealed] = useState<string | null>(null);
  const [confirmingClear, setConfirmingClear] = useState(false);
  const fromCommandLine = status.tokenSource === 'command-line';

  const run = async (action: () => Promise<void>): Promise<void> => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      notify(messageOf(err), 'error');
    } finally {
      setBusy(false);
    }
  };

  const toggle = (enabled: boolean) =>
    run(async () => {
      onStatus(await call<ApiStatus>('PUT', '/api', { enabled }));
      notify(enabled ? 'HTTP API enabled' : 'HTTP API disabled');
    });

  const setToken = (e: Event) => {
    e.preventDefault();
    const problem = checkToken(draft);
    setDraftError(problem);
    if (problem) return;
    void run(async () => {
      const next = await call<ApiStatus>('PUT', '/api/token', { token: draft });
      // From now on the server wants the new token; this tab keeps using it.
      writeToken(draft);
      setDraft('');
      onStatus(next);
      notify('Token set');
    });
  };

  const rotate = () =>
    run(async () => {
      const { token, api } = await call<{ token: string; api: ApiStatus }>('POST', '/api/token/rotate');
      writeToken(token);
      setRevealed(token);
      onStatus(api);
    });

  const clear = async (): Promise<void> => {
    const next = await call<ApiStatus>('DELETE', '/api/token');
    writeToken(null);
    onStatus(next);
    notify('Token cleared');
  };

  return (
    <section class="section" aria-labelledby="api-title" id="api">
      <h2 id="api-title">HTTP API</h2>
      <div class="card">
        <Switch
          label="Enable HTTP API"
          checked={status.apiEnabled}
          onChange={toggle}
          describedBy="api-enabled-help"
        />
        <p class="hint" id="api-enabled-help">
          {status.apiEnabled
            ? 'The API answers under /api and webhooks are delivered.'
            : 'The API is off: /api/* answers 503 "HTTP API is disabled" and no webhook is delivered.'}
        </p>
        <dl class="facts">
          <div>
            <dt>Address</dt>
            <dd class="mono">{baseUrl(status)}/api</dd>
          </div>
          <div>
            <dt>Host</dt>
            <dd class="mono">{status.host}</dd>
          </div>
          <div>
            <dt>Port</dt>
            <dd class="mono">{status.port}</dd>
          </div>
          <div>
            <dt>Documentation</dt>
            <dd>
              <a href="/api/docs/ui">API documentation (Swagger UI)</a>
            </dd>
          </div>
        </dl>
      </div>

      <div class="card">
        <h3>Token</h3>
        <p id="token-state" class={fromCommandLine ? 'note' : undefined}>
          {tokenText(status)}
        </p>
        <form class="inline-form" onSubmit={setToken}>
          <TextField
            label="New token"
            type="password"
            name="new-token"
            autoComplete="new-password"
            value={draft}
            onInput={setDraft}
            error={draftError}
            disabled={fromCommandLine || busy}
            hint="Clients send it as Authorization: Bearer <token>. Replacing it makes the old one stop working."
          />
          <div class="actions">
            <button type="submit" class="button primary" disabled={fromCommandLine || busy}>
              Set token
            </button>
            <button
              type="button"
              class="button"
              onClick={() => void rotate()}
              disabled={fromCommandLine || busy}
            >
              Generate new token
            </button>
            {status.tokenSet && (
              <button
                type="button"
                class="button danger"
                onClick={() => setConfirmingClear(true)}
                disabled={fromCommandLine || busy}
              >
                Clear token
              </button>
            )}
          </div>
        </form>
      </div>

      {revealed && (
        <RevealDialog
          title="Token generated"
          label="API token"
          value={revealed}
          explanation="Copy the token now: it will not be shown again. This tab already uses it."
          onClose={() => setRevealed(null)}
        />
      )}
      {confirmingClear && (
        <ConfirmDialog
          title="Clear token"
          message={[
            'Remove the API token? Any program that can reach the server can then use the API without authentication.',
          ]}
          confirmLabel="Clear token"
          onConfirm={clear}
          onClose={() => setConfirmingClear(false)}
        />
      )}
    </section>
  );
}
