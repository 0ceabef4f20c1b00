/**
 * The body template of new tasks (TaskNotes' `taskCreationDefaults.useBodyTemplate` and
 * `bodyTemplate`; tasknotes-spec §5.3.5, §9.14), applied at create: the template file is read,
 * split into frontmatter and body, its `{{variables}}` expanded from the new task (frontmatter
 * before it is parsed), its frontmatter merged under the task's own (the task's keys win) and its
 * body used when it has content. A template that cannot be read or parsed follows the configured
 * failure mode: `warning_fallback` (the default, and what a TaskNotes vault gets) creates the task
 * without it and reports a warning; `error` aborts the create.
 */
import { mapPluginSettings } from '../config/plugin-settings.js';
import { mergeTopLevel } from '../config/providers.js';
import { validateConfigSection } from '../config/schema.js';
import { isRecord } from '../is-record.js';
import { readYamlFull } from '../tasks/note-format.js';
import type { TaskNotesSettings } from '../tasks/tasknotes-settings.js';
import { composeFromTemplate, onTemplateFailure, TEMPLATING_DEFAULTS } from './compose.js';
import { splitTemplate } from './sections.js';
import {
  expandTemplate,
  taskTemplateVariables,
  type TemplateTask,
  type UnknownVariablePolicy,
} from './variables.js';

export interface TemplatingConfig {
  enabled: boolean;
  /** Vault-relative path of the template note. */
  templatePath: string;
  failureMode: string;
  unknownVariablePolicy: UnknownVariablePolicy;
}

/**
 * The effective `templating` section of a vault: the TaskNotes settings mapped to the spec's
 * configuration (mapPluginSettings) over the spec's defaults. An unusable section (enabled without
 * a template path) counts as disabled; `problem` says why.
 */
export function templatingConfig(settings: TaskNotesSettings): TemplatingConfig & { problem?: string } {
  // The spec's defaults, then the vault's settings as a configuration provider: a provider's
  // section replaces the whole section, and the keys it leaves out take their defaults.
  const effective = mergeTopLevel([{ templating: TEMPLATING_DEFAULTS }, mapPluginSettings(settings)]);
  const section: Record<string, unknown> = { ...TEMPLATING_DEFAULTS, ...(effective.templating ?? {}) };
  const config: TemplatingConfig = {
    enabled: section.enabled === true,
    templatePath: typeof section.template_path === 'string' ? section.template_path.trim() : '',
    failureMode: String(section.failure_mode),
    unknownVariablePolicy: section.unknown_variable_policy as UnknownVariablePolicy,
  };
  try {
    validateConfigSection('templating', section);
    if (config.enabled && config.templatePath === '') throw new Error('templating.template_path missing');
  } catch (error) {
    return { ...config, enabled: false, problem: (error as Error).message };
  }
  return config;
}

/** The note a template path names: as given, or with `.md` when it has no extension. */
export function templateNotePath(templatePath: string): string {
  return /\.[A-Za-z0-9]+$/.test(templatePath) ? templatePath : `${templatePath}.md`;
}

export interface TemplateWarning {
  code: 'template_missing' | 'template_parse_failed';
  message: string;
}

export interface TemplatedNote {
  frontmatter: Record<string, unknown>;
  body: string;
  warnings: TemplateWarning[];
}

/**
 * Applies the template to a new task's frontmatter and body. `read` returns the template note's
 * text (it throws when the note cannot be read). In `error` mode a failure throws INVALID with
 * the warning's code.
 */
export async function applyCreateTemplate(
  note: { frontmatter: Record<string, unknown>; body: string; task: TemplateTask },
  config: TemplatingConfig,
  now: Date,
  read: (path: string) => Promise<string>,
): Promise<TemplatedNote> {
  const unchanged = { frontmatter: note.frontmatter, body: note.body };
  const fail = (warning: TemplateWarning): TemplatedNote => {
    onTemplateFailure(config.failureMode, `${warning.code}: ${warning.message}`);
    return { ...unchanged, warnings: [warning] };
  };
  const path = templateNotePath(config.templatePath);
  let text: string;
  try {
    text = await read(path);
  } catch (error) {
    return fail({ code: 'template_missing', message: `${path}: ${(error as Error).message}` });
  }
  const variables = taskTemplateVariables(note.task, now);
  let frontmatter: Record<string, unknown>;
  let body: string;
  try {
    const sections = splitTemplate(text);
    const expanded = expandTemplate(sections.frontmatterRaw, variables, config.unknownVariablePolicy);
    const parsed = expanded.trim() === '' ? {} : readYamlFull(expanded);
    if (!isRecord(parsed)) throw new Error('its frontmatter is not a mapping');
    frontmatter = parsed;
    body = expandTemplate(sections.body, variables, config.unknownVariablePolicy);
  } catch (error) {
    return fail({ code: 'template_parse_failed', message: `${path}: ${(error as Error).message}` });
  }
  const composed = composeFromTemplate({
    baseFrontmatter: note.frontmatter,
    templateFrontmatter: frontmatter,
    callerBody: note.body,
    templateBody: body,
  });
  return { ...composed, warnings: [] };
}
