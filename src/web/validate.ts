/**
 * Form checks that run before anything is sent, with the reference settings UI's messages
 * where it has them. The server checks again; these only spare a round trip and point at the
 * field to fix.
 */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export interface WebhookDraft {
  url: string;
  events: string[];
  transformFile: string;
  corsHeaders: boolean;
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function checkWebhook(draft: WebhookDraft): FieldErrors<'url' | 'events' | 'transformFile'> {
  const errors: FieldErrors<'url' | 'events' | 'transformFile'> = {};
  const url = draft.url.trim();
  if (url === '') errors.url = 'Webhook URL is required';
  else if (!isHttpUrl(url)) errors.url = 'Enter an absolute http:// or https:// URL';
  if (draft.events.length === 0) errors.events = 'Please select at least one event';
  const transform = draft.transformFile.trim();
  if (transform !== '' && !transform.toLowerCase().endsWith('.json')) {
    errors.transformFile = 'Transform files are .json templates inside the vault';
  }
  return errors;
}

/** The server's rule for tokens (src/core/state/api-access.ts): they travel in a header. */
const TOKEN_PATTERN = /^[\x21-\x7e]{8,256}$/;

export function checkToken(token: string): string | undefined {
  return TOKEN_PATTERN.test(token) ? undefined : 'Use 8 to 256 visible characters, without spaces';
}

export interface SubscriptionDraft {
  name: string;
  type: 'remote' | 'local';
  url: string;
  filePath: string;
  color: string;
  enabled: boolean;
  refreshInterval: string;
}

export function checkSubscription(
  draft: SubscriptionDraft,
): FieldErrors<'name' | 'url' | 'filePath' | 'refreshInterval'> {
  const errors: FieldErrors<'name' | 'url' | 'filePath' | 'refreshInterval'> = {};
  if (draft.name.trim() === '') errors.name = 'Name is required';
  if (draft.type === 'remote') {
    const url = draft.url.trim();
    if (url === '') errors.url = 'Feed URL is required';
    else if (!/^(https?|webcal):\/\//i.test(url)) errors.url = 'Enter an http://, https:// or webcal:// URL';
  } else {
    const file = draft.filePath.trim();
    if (file === '') errors.filePath = 'File path is required';
    else if (!file.toLowerCase().endsWith('.ics')) errors.filePath = 'Enter the vault path of an .ics file';
  }
  const minutes = Number(draft.refreshInterval);
  if (!Number.isInteger(minutes) || minutes < 1) {
    errors.refreshInterval = 'Refresh interval must be a whole number of minutes, at least 1';
  }
  return errors;
}

export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;
