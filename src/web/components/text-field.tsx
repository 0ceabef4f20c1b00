/** A labelled text input with an optional hint and an inline error tied to it for screen readers. */
import type { Ref } from 'preact';
import { useUniqueId } from '../use-unique-id.js';

export interface TextFieldProps {
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'url' | 'password' | 'number' | 'color';
  placeholder?: string;
  hint?: string;
  error?: string;
  autoComplete?: string;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
  min?: number;
  name?: string;
}

export function TextField(props: TextFieldProps) {
  const id = useUniqueId('field');
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label class="field-label" for={id}>
        {props.label}
      </label>
      <input
        id={id}
        ref={props.inputRef}
        class={`input${props.type === 'color' ? ' color' : ''}`}
        type={props.type ?? 'text'}
        name={props.name}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete ?? 'off'}
        spellcheck={false}
        disabled={props.disabled}
        min={props.min}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      {props.hint && (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}
