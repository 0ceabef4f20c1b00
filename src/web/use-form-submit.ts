/**
 * The submit flow of the settings page's dialog forms: check the draft, show the field errors
 * (and let the form move the keyboard to the first one), else send it; a refusal by the server
 * is shown and unlocks the form, which stays locked while a request is in flight.
 */
import { useState } from 'preact/hooks';
import { messageOf } from './api.js';
import { hasErrors, type FieldErrors } from './validate.js';

export interface FormSubmit<F extends string> {
  errors: FieldErrors<F>;
  failure: string | null;
  busy: boolean;
  submit: (e: Event) => Promise<void>;
}

export function useFormSubmit<F extends string>(
  check: () => FieldErrors<F>,
  send: () => Promise<void>,
  focusFirstError: (errors: FieldErrors<F>, form: HTMLFormElement) => void,
): FormSubmit<F> {
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const found = check();
    setErrors(found);
    setFailure(null);
    if (hasErrors(found)) {
      focusFirstError(found, e.currentTarget as HTMLFormElement);
      return;
    }
    setBusy(true);
    try {
      await send();
    } catch (err) {
      setFailure(messageOf(err));
      setBusy(false);
    }
  };
  return { errors, failure, busy, submit };
}
