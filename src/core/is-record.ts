/** A JSON object — not null, not an array — whose keys may be read: the first check on loose input. */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
