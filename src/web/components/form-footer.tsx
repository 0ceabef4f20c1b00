/** The end of a dialog form: the server's refusal, if any, then Cancel and the submit button. */
export interface FormFooterProps {
  failure: string | null;
  /** Locks the submit button while the request is in flight. */
  busy: boolean;
  submitLabel: string;
  onCancel: () => void;
}

export function FormFooter({ failure, busy, submitLabel, onCancel }: FormFooterProps) {
  return (
    <>
      {failure && (
        <p class="error" role="alert">
          {failure}
        </p>
      )}
      <div class="actions">
        <button type="button" class="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </>
  );
}
