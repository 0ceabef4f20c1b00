/**
 * Readers for the loosely typed fixture inputs. Conformance inputs are JSON of any shape; these
 * narrow them without throwing so that handlers can decide how to treat a missing or wrong field.
 */
import { isRecord } from '../core/is-record.js';

export { isRecord };

export type JsonRecord = Record<string, unknown>;

/** The value as a shallow-copied record, or {} when it is not one. */
export function record(value: unknown): JsonRecord {
  return isRecord(value) ? { ...value } : {};
}

/** The value when it is a string, else undefined. */
export function optString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value when it is a string, else ''. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The string elements of an array value ([] when not an array). */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The record elements of an array value, shallow-copied ([] when not an array). */
export function records(value: unknown): JsonRecord[] {
  return Array.isArray(value) ? value.filter(isRecord).map((v) => ({ ...v })) : [];
}
