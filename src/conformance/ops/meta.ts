/** meta.* — the adapter's claim (ADAPTER_CONTRACT.md, spec §7). */
import { okResult } from '../envelope.js';
import { record, str } from '../input.js';
import { conformanceMetadata, hasCapability, hasProfile } from '../metadata.js';
import type { OpTable } from '../types.js';

export const metaOps: OpTable = {
  'meta.claim': () =>
    okResult({
      ...conformanceMetadata,
      profiles: [...conformanceMetadata.profiles],
      capabilities: [...conformanceMetadata.capabilities],
      validation_modes: [...conformanceMetadata.validation_modes],
    }),
  'meta.has_capability': (input) => okResult({ value: hasCapability(str(record(input).capability)) }),
  'meta.has_profile': (input) => okResult({ value: hasProfile(str(record(input).profile)) }),
};
