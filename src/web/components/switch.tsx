/**
 * An on/off control: a native checkbox with the switch role, so it is labelled and keyboard
 * operable. When `onChange` returns a promise (a save), the switch shows the new position
 * until it settles instead of snapping back while the request is in flight; if the save fails
 * the parent's `checked` (unchanged) takes over again.
 */
import { useState } from 'preact/hooks';

export interface SwitchProps {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void | Promise<unknown>;
  /** Id of an element that explains the switch. */
  describedBy?: string;
  /** Extra words for screen readers only, e.g. which webhook the switch belongs to. */
  srDetail?: string;
}

export function Switch({ label, checked, disabled, onChange, describedBy, srDetail }: SwitchProps) {
  const [pending, setPending] = useState<boolean | null>(null);
  const change = (next: boolean): void => {
    // Not disabled while saving: a disabled control drops keyboard focus.
    if (pending !== null) return;
    const result = onChange(next);
    if (!(result instanceof Promise)) return;
    setPending(next);
    void result.finally(() => setPending(null));
  };
  return (
    <label class="switch">
      <input
        type="checkbox"
        role="switch"
        checked={pending ?? checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(e) => change(e.currentTarget.checked)}
      />
      <span class="switch-label">
        {label}
        {srDetail && <span class="visually-hidden"> {srDetail}</span>}
      </span>
    </label>
  );
}
