/**
 * Translating the TaskNotes plugin's settings (`.obsidian/plugins/tasknotes/data.json`) into the
 * tasknotes-spec configuration sections (§9.19, provider `tasknotes_plugin_settings`). Only keys
 * present in the settings produce output, so a partial data.json yields a partial configuration
 * that later providers or defaults complete.
 */
import { isRecord } from '../is-record.js';

export type SpecConfig = Record<string, Record<string, unknown>>;

type Raw = Record<string, unknown>;

/** `completeInstances` → `complete_instances`: the spec's configuration keys are snake_case. */
export function pluginKeyToSpecRole(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

/** Copies the listed settings that have the wanted type, renamed; undefined when none is present. */
function pick(source: Raw, pairs: ReadonlyArray<[from: string, to: string, type: 'string' | 'boolean']>) {
  const out: Raw = {};
  for (const [from, to, type] of pairs) {
    if (typeof source[from] === type) out[to] = source[from];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function mappingSection(source: Raw): Raw | undefined {
  if (!isRecord(source.fieldMapping)) return undefined;
  const out: Raw = {};
  for (const [key, field] of Object.entries(source.fieldMapping)) {
    if (typeof field === 'string' && field.trim() !== '') out[pluginKeyToSpecRole(key)] = field;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function statusSection(source: Raw): Raw | undefined {
  const statuses = Array.isArray(source.customStatuses) ? source.customStatuses.filter(isRecord) : [];
  const values = statuses.map((s) => s.value).filter((v): v is string => typeof v === 'string');
  const completed = statuses
    .filter((s) => s.isCompleted === true && typeof s.value === 'string')
    .map((s) => s.value as string);
  const out: Raw = {};
  if (values.length > 0) out.values = values;
  if (typeof source.defaultTaskStatus === 'string') out.default = source.defaultTaskStatus;
  if (completed.length > 0) out.completed_values = completed;
  return Object.keys(out).length > 0 ? out : undefined;
}

function titleSection(source: Raw): Raw | undefined {
  const out: Raw = {};
  if (typeof source.storeTitleInFilename === 'boolean') {
    out.storage = source.storeTitleInFilename ? 'filename' : 'frontmatter';
  }
  Object.assign(
    out,
    pick(source, [
      ['taskFilenameFormat', 'filename_format', 'string'],
      ['customFilenameTemplate', 'custom_filename_template', 'string'],
    ]),
  );
  return Object.keys(out).length > 0 ? out : undefined;
}

function taskDetectionSection(source: Raw): Raw | undefined {
  const out: Raw = {};
  if (typeof source.taskIdentificationMethod === 'string') {
    out.method = source.taskIdentificationMethod;
    if (typeof source.taskTag === 'string' && source.taskTag.trim() !== '') out.tag = source.taskTag;
    const propertyName = typeof source.taskPropertyName === 'string' ? source.taskPropertyName : undefined;
    if (propertyName && propertyName.trim() !== '') out.property_name = propertyName;
    if (typeof source.taskPropertyValue === 'string') out.property_value = source.taskPropertyValue;
  }
  if (typeof source.tasksFolder === 'string' && source.tasksFolder.trim() !== '')
    out.default_folder = source.tasksFolder;
  if (typeof source.excludedFolders === 'string' && source.excludedFolders.trim() !== '') {
    out.excluded_folders = source.excludedFolders;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function mapPluginSettings(data: unknown): SpecConfig {
  const source = isRecord(data) ? data : {};
  const defaults = isRecord(source.taskCreationDefaults) ? source.taskCreationDefaults : {};
  const sections: Record<string, Raw | undefined> = {
    mapping: mappingSection(source),
    title: titleSection(source),
    templating: pick(defaults, [
      ['useBodyTemplate', 'enabled', 'boolean'],
      ['bodyTemplate', 'template_path', 'string'],
    ]),
    status: statusSection(source),
    defaults: pick(source, [
      ['defaultTaskStatus', 'status', 'string'],
      ['defaultTaskPriority', 'priority', 'string'],
    ]),
    time_tracking: pick(source, [
      ['autoStopTimeTrackingOnComplete', 'auto_stop_on_complete', 'boolean'],
      ['autoStopTimeTrackingNotification', 'auto_stop_notification', 'boolean'],
    ]),
    task_detection: taskDetectionSection(source),
    archive: pick(source, [
      ['moveArchivedTasks', 'move_on_archive', 'boolean'],
      ['archiveFolder', 'folder', 'string'],
    ]),
    links: pick(source, [['useFrontmatterMarkdownLinks', 'use_markdown_format', 'boolean']]),
  };
  const out: SpecConfig = {};
  for (const [name, section] of Object.entries(sections)) if (section) out[name] = section;
  return out;
}
