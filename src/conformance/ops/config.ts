/** config.* — configuration resolution and validation (spec §9) over src/core/config. */
import { resolveCollectionPath } from '../../core/config/collection-path.js';
import { mapPluginSettings } from '../../core/config/plugin-settings.js';
import {
  assertConfigurationUsable,
  effectiveSpecVersion,
  mergeTopLevel,
} from '../../core/config/providers.js';
import { validateConfigSection } from '../../core/config/schema.js';
import { isTaskNote, type TaskDetection } from '../../core/config/task-detection.js';
import { SPEC_VERSION } from '../../core/spec-version.js';
import { attempt, okResult } from '../envelope.js';
import { isRecord, optString, record, str } from '../input.js';
import type { OpTable } from '../types.js';

export const configOps: OpTable = {
  'config.resolve_collection_path': (input) => {
    const p = record(input);
    return attempt(() => ({
      value: resolveCollectionPath({
        flagPath: optString(p.flagPath),
        envPath: optString(p.envPath),
        persistedPath: optString(p.persistedPath),
        cwd: optString(p.cwd),
      }),
    }));
  },
  'config.merge_top_level': (input) => {
    const providers = record(input).providers;
    return okResult({ value: mergeTopLevel(Array.isArray(providers) ? providers.filter(isRecord) : []) });
  },
  'config.spec_version_effective': (input) => {
    const p = record(input);
    const target = optString(p.targetSpecVersion)?.trim() || SPEC_VERSION;
    return okResult(effectiveSpecVersion(optString(p.providerSpecVersion), target));
  },
  'config.map_tasknotes_plugin': (input) => okResult({ value: mapPluginSettings(record(input).data) }),
  'config.detect_task_file': (input) => {
    const p = record(input);
    const note = { filePath: str(p.filePath), frontmatter: record(p.frontmatter), body: str(p.body) };
    return okResult({ value: isTaskNote(note, record(p.taskDetection) as TaskDetection) });
  },
  'config.provider_behavior': (input) => {
    const p = record(input);
    return attempt(() => {
      assertConfigurationUsable({
        mode: typeof p.mode === 'string' ? p.mode : 'strict',
        providersReadable: p.providersReadable === true,
        hasRequiredKeys: p.hasRequiredKeys === true,
      });
      return { value: 'accepted' };
    });
  },
  'config.validate_schema': (input) => {
    const p = record(input);
    return attempt(() => {
      validateConfigSection(str(p.kind), record(p.value));
      return { value: 'valid' };
    });
  },
};
