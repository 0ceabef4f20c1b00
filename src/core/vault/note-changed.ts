/**
 * Thrown by a note write that finds the note changed by another program since it was read (or a
 * path it needs taken): nothing was written, and the change is to be computed again from the
 * current note (VaultStore.retryOnChange).
 */
export class NoteChangedError extends Error {
  override readonly name = 'NoteChangedError';
  constructor(readonly rel: string) {
    super(`${rel} changed on disk during a write`);
  }
}
