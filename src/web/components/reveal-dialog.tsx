/**
 * Shows a secret value exactly once (a webhook secret, a generated token) with a copy button.
 * The page keeps no copy after the dialog closes, and the server never returns it again.
 */
import { useState } from 'preact/hooks';
import { Dialog } from './dialog.js';

export interface RevealDialogProps {
  title: string;
  label: string;
  value: string;
  explanation: string;
  onClose: () => void;
}

export function RevealDialog({ title, label, value, explanation, onClose }: RevealDialogProps) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // Clipboard access needs a secure context and permission; selecting lets the user copy by hand.
      setCopied('no');
    }
  };
  return (
    <Dialog title={title} onClose={onClose}>
      <p class="dialog-text">{explanation}</p>
      <label class="field">
        <span class="field-label">{label}</span>
        <input
          class="input mono"
          type="text"
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>
      <p class="hint" role="status">
        {copied === 'yes' && 'Copied to the clipboard.'}
        {copied === 'no' && 'The clipboard is not available here: select the text and copy it.'}
      </p>
      <div class="actions">
        <button type="button" class="button" onClick={copy}>
          Copy
        </button>
        <button type="button" class="button primary" onClick={onClose} autoFocus>
          Got it
        </button>
      </div>
    </Dialog>
  );
}
