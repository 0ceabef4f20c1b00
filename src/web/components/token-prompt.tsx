/**
 * Shown when the server wants a token (any 401). The token is checked against the server and
 * kept in sessionStorage only, so it is forgotten when the tab closes.
 */
import { useState } from 'preact/hooks';
import { ApiError, call, messageOf } from '../api.js';
import { readToken, writeToken } from '../token-store.js';
import { TextField } from './text-field.js';

export function TokenPrompt({ onUnlocked }: { onUnlocked: () => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>(
    readToken() ? 'The saved token is no longer accepted. Enter the current one.' : undefined,
  );
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const token = value.trim();
    if (token === '') {
      setError('Enter the API token');
      return;
    }
    setBusy(true);
    writeToken(token);
    try {
      await call('GET', '/api');
      onUnlocked();
    } catch (err) {
      writeToken(null);
      setError(
        err instanceof ApiError && err.status === 401 ? 'That token was not accepted' : messageOf(err),
      );
      setBusy(false);
    }
  };

  return (
    <main class="locked" id="main">
      <form class="card narrow" onSubmit={submit} noValidate>
        <h1>Taskdown settings</h1>
        <p>This server is protected by an API token. Enter it to open the settings.</p>
        <TextField
          label="API token"
          type="password"
          name="token"
          autoComplete="current-password"
          value={value}
          onInput={setValue}
          error={error}
          hint="Kept only in this browser tab (session storage) and sent as a bearer token."
        />
        <div class="actions">
          <button type="submit" class="button primary" disabled={busy}>
            Unlock
          </button>
        </div>
      </form>
    </main>
  );
}
