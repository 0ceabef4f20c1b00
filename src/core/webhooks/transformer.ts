/**
 * JSON template transforms (docs/webhooks.md, "Delivery"). The template file is read
 * at delivery time, so edits apply to the next event without a restart. Any failure falls back
 * to the original payload and reports why, so the delivery log shows it (the reference only
 * logged it).
 */
import type { VaultFileReader } from './vault-reader.js';
import { isRecord } from '../is-record.js';

export interface TransformResult {
  /** What is sent: the transformed payload, or the original one on failure. */
  payload: unknown;
  /** Set when the transform fell back to the original payload. */
  error?: string;
}

const PLACEHOLDER = /\$\{([^}]+)\}/g;

export async function applyTransform(
  reader: VaultFileReader,
  file: string,
  event: string,
  original: Record<string, unknown>,
): Promise<TransformResult> {
  const fallback = (error: string): TransformResult => ({ payload: original, error });
  if (file.endsWith('.js')) {
    return fallback(
      'JavaScript webhook transforms are no longer supported. Use a JSON transform template instead.',
    );
  }
  if (!file.endsWith('.json')) {
    return fallback(`Transform file '${file}' is not a .json template`);
  }
  let text: string;
  try {
    text = await reader.readText(file);
  } catch (err) {
    const reason =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (err as Error).message;
    return fallback(`Failed to read template file '${file}': ${reason}`);
  }
  if (text.trim() === '') return fallback(`Template file '${file}' is empty`);
  let templates: unknown;
  try {
    templates = JSON.parse(text);
  } catch (err) {
    return fallback(`Invalid JSON in template file '${file}': ${(err as Error).message}`);
  }
  if (!isRecord(templates)) {
    return fallback(`Invalid JSON in template file '${file}': expected an object with event templates`);
  }
  const template = pick(templates, event) ?? pick(templates, 'default');
  if (template === undefined) {
    const available = Object.keys(templates).filter((k) => k !== 'default');
    return fallback(
      `No template found for event '${event}' and no default template. ` +
        `Available templates: ${available.join(', ') || '(none)'}`,
    );
  }
  return { payload: interpolate(template, original) };
}

function pick(templates: Record<string, unknown>, key: string): unknown {
  const value = Object.hasOwn(templates, key) ? templates[key] : undefined;
  return value === null ? undefined : value;
}

/** Walks the template: strings get placeholders substituted; object keys stay as written. */
export function interpolate(template: unknown, root: unknown): unknown {
  if (typeof template === 'string') return substitute(template, root);
  if (Array.isArray(template)) return template.map((item) => interpolate(item, root));
  if (isRecord(template)) {
    // fromEntries defines own properties, so a template key "__proto__" stays a plain key.
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, interpolate(v, root)]));
  }
  return template;
}

function substitute(text: string, root: unknown): string {
  return text.replace(PLACEHOLDER, (whole, path: string) => {
    const value = resolve(root, path);
    if (value === undefined || value === null) return whole;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return JSON.stringify(value);
  });
}

/** `a.b.0` against the payload: numeric parts index arrays; only own properties are visible. */
export function resolve(root: unknown, path: string): unknown {
  let current = root;
  for (const part of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(part)) return undefined;
      current = current[Number(part)];
    } else if (isRecord(current)) {
      current = Object.hasOwn(current, part) ? current[part] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}
