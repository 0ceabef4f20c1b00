/** The "Add subscription" / "Edit subscription" dialog for an ICS calendar feed. */
import { useState } from 'preact/hooks';
import { useFormSubmit } from '../use-form-submit.js';
import { useUniqueId } from '../use-unique-id.js';
import type { Subscription } from '../types.js';
import { checkSubscription, type SubscriptionDraft } from '../validate.js';
import { Dialog } from './dialog.js';
import { FormFooter } from './form-footer.js';
import { Switch } from './switch.js';
import { TextField } from './text-field.js';

export interface SubscriptionFormProps {
  initial?: Subscription;
  onSubmit: (draft: SubscriptionDraft) => Promise<void>;
  onClose: () => void;
}

export function SubscriptionForm({ initial, onSubmit, onClose }: SubscriptionFormProps) {
  const [draft, setDraft] = useState<SubscriptionDraft>({
    name: initial?.name ?? '',
    type: initial?.type ?? 'remote',
    url: initial?.url ?? '',
    filePath: initial?.filePath ?? '',
    color: initial?.color ?? '#6495ED',
    enabled: initial?.enabled ?? true,
    refreshInterval: String(initial?.refreshInterval ?? 60),
  });
  const sourceName = useUniqueId('source');
  const patch = (change: Partial<SubscriptionDraft>) => setDraft((d) => ({ ...d, ...change }));
  const { errors, failure, busy, submit } = useFormSubmit(
    () => checkSubscription(draft),
    () => onSubmit(draft),
    (_found, form) => form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus(),
  );

  return (
    <Dialog title={initial ? 'Edit subscription' : 'Add subscription'} onClose={onClose} class="wide">
      <form onSubmit={submit} noValidate>
        <TextField
          label="Name"
          name="name"
          value={draft.name}
          onInput={(name) => patch({ name })}
          error={errors.name}
        />
        <fieldset class="radios">
          <legend class="field-label">Source</legend>
          <label class="check">
            <input
              type="radio"
              name={sourceName}
              checked={draft.type === 'remote'}
              onChange={() => patch({ type: 'remote' })}
            />
            <span>Remote feed (URL)</span>
          </label>
          <label class="check">
            <input
              type="radio"
              name={sourceName}
              checked={draft.type === 'local'}
              onChange={() => patch({ type: 'local' })}
            />
            <span>.ics file in the vault</span>
          </label>
        </fieldset>
        {draft.type === 'remote' ? (
          <TextField
            label="Feed URL"
            type="url"
            name="url"
            value={draft.url}
            onInput={(url) => patch({ url })}
            placeholder="https://example.com/calendar.ics"
            hint="http, https or webcal"
            error={errors.url}
          />
        ) : (
          <TextField
            label="File path"
            name="filePath"
            value={draft.filePath}
            onInput={(filePath) => patch({ filePath })}
            placeholder="Calendars/holidays.ics"
            hint="Vault-relative path of an .ics file"
            error={errors.filePath}
          />
        )}
        <div class="field-row">
          <TextField
            label="Color"
            type="color"
            name="color"
            value={draft.color}
            onInput={(color) => patch({ color })}
          />
          <TextField
            label="Refresh every (minutes)"
            type="number"
            name="refreshInterval"
            min={1}
            value={draft.refreshInterval}
            onInput={(refreshInterval) => patch({ refreshInterval })}
            error={errors.refreshInterval}
          />
        </div>
        <Switch label="Enabled" checked={draft.enabled} onChange={(enabled) => patch({ enabled })} />
        <FormFooter
          failure={failure}
          busy={busy}
          submitLabel={initial ? 'Save changes' : 'Add subscription'}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
