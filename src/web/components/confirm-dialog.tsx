/** "Are you sure?" before something that cannot be undone. */
import { useState } from 'preact/hooks';
import { messageOf } from '../api.js';
import { Dialog } from './dialog.js';

export interface ConfirmDialogProps {
  title: string;
  /** Paragraphs of the message. */
  message: string[];
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onClose }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <Dialog title={title} onClose={onClose}>
      {message.map((text) => (
        <p class="dialog-text">{text}</p>
      ))}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" class="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" class="button danger" onClick={confirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
