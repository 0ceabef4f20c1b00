/**
 * The "Add webhook" and "Edit webhook" dialog: URL, events (all 14 of the catalogue), transform
 * file and the custom-headers switch, checked before sending with the reference UI's messages.
 */
import { useRef, useState } from 'preact/hooks';
import { useFormSubmit } from '../use-form-submit.js';
import { useUniqueId } from '../use-unique-id.js';
import type { Webhook } from '../types.js';
import { checkWebhook, type WebhookDraft } from '../validate.js';
import { Dialog } from './dialog.js';
import { FormFooter } from './form-footer.js';
import { Switch } from './switch.js';
import { TextField } from './text-field.js';

export interface WebhookFormProps {
  /** The webhook being edited; absent when adding. */
  initial?: Webhook;
  eventNames: string[];
  onSubmit: (draft: WebhookDraft) => Promise<void>;
  onClose: () => void;
}

export function WebhookForm({ initial, eventNames, onSubmit, onClose }: WebhookFormProps) {
  const [draft, setDraft] = useState<WebhookDraft>({
    url: initial?.url ?? '',
    events: initial?.events ?? [],
    transformFile: initial?.transformFile ?? '',
    corsHeaders: initial?.corsHeaders ?? true,
  });
  const urlRef = useRef<HTMLInputElement>(null);
  const eventsRef = useRef<HTMLFieldSetElement>(null);
  const baseId = useUniqueId('webhook-form');
  const headersHelpId = `${baseId}-headers`;
  const eventsErrorId = `${baseId}-events-error`;

  const patch = (change: Partial<WebhookDraft>) => setDraft((d) => ({ ...d, ...change }));
  const toggleEvent = (name: string, on: boolean) =>
    patch({ events: on ? [...draft.events, name] : draft.events.filter((e) => e !== name) });

  const { errors, failure, busy, submit } = useFormSubmit(
    () => checkWebhook(draft),
    () => onSubmit({ ...draft, url: draft.url.trim(), transformFile: draft.transformFile.trim() }),
    // Send the keyboard to the first field that needs fixing.
    (found) => {
      if (found.url) urlRef.current?.focus();
      else if (found.events) eventsRef.current?.querySelector('input')?.focus();
    },
  );

  return (
    <Dialog title={initial ? 'Edit webhook' : 'Add webhook'} onClose={onClose} class="wide">
      <form onSubmit={submit} noValidate>
        <TextField
          label="URL"
          type="url"
          name="url"
          value={draft.url}
          onInput={(url) => patch({ url })}
          placeholder="https://your-service.com/webhook"
          error={errors.url}
          inputRef={urlRef}
        />
        <fieldset
          class="events"
          ref={eventsRef}
          aria-describedby={errors.events ? eventsErrorId : undefined}
          aria-invalid={errors.events ? true : undefined}
        >
          <legend class="field-label">Events</legend>
          <div class="actions compact">
            <button type="button" class="button small" onClick={() => patch({ events: [...eventNames] })}>
              Select all
            </button>
            <button type="button" class="button small" onClick={() => patch({ events: [] })}>
              Select none
            </button>
            <span class="hint">
              {draft.events.length} of {eventNames.length} selected
            </span>
          </div>
          <div class="event-grid">
            {eventNames.map((name) => (
              <label class="check" key={name}>
                <input
                  type="checkbox"
                  name="events"
                  value={name}
                  checked={draft.events.includes(name)}
                  onChange={(ev) => toggleEvent(name, ev.currentTarget.checked)}
                />
                <span class="mono">{name}</span>
              </label>
            ))}
          </div>
          {errors.events && (
            <p class="error" id={eventsErrorId}>
              {errors.events}
            </p>
          )}
        </fieldset>
        <TextField
          label="Transform file"
          name="transformFile"
          value={draft.transformFile}
          onInput={(transformFile) => patch({ transformFile })}
          placeholder="simple-template.json"
          hint="A .json template inside the vault. Leave empty to send the raw payload."
          error={errors.transformFile}
        />
        <Switch
          label="Include custom headers"
          checked={draft.corsHeaders}
          onChange={(corsHeaders) => patch({ corsHeaders })}
          describedBy={headersHelpId}
        />
        <p class="hint" id={headersHelpId}>
          Sends X-Service-Event, X-Service-Signature and X-Service-Delivery-ID. Without them the receiver
          cannot verify the signature.
        </p>
        <FormFooter
          failure={failure}
          busy={busy}
          submitLabel={initial ? 'Save changes' : 'Add webhook'}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
