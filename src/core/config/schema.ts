/**
 * Validation of the spec configuration sections (tasknotes-spec §9): each section is checked
 * against a small rule table (allowed values, types, patterns) plus the cross-field rules that a
 * table cannot express. The first violation is reported as `<section>.<key> <problem>`.
 */
import { invalid } from '../errors.js';
import { DEPENDENCY_RELTYPES } from '../dependencies/entry.js';

type Section = Record<string, unknown>;
type Rule = (value: unknown) => string | null;

const oneOf =
  (...allowed: readonly string[]): Rule =>
  (v) =>
    typeof v === 'string' && allowed.includes(v) ? null : 'invalid';
const isBoolean: Rule = (v) => (typeof v === 'boolean' ? null : 'invalid');
const isStringList: Rule = (v) =>
  Array.isArray(v) && v.every((e) => typeof e === 'string') ? null : 'invalid';
const isClockTime: Rule = (v) =>
  typeof v === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(v) ? null : 'invalid';
const nonBlank = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';

/** Per section: key → rule (applied when the key is present), then cross-field checks. */
const SECTIONS: Record<string, { keys: Record<string, Rule>; cross?: (s: Section) => string | null }> = {
  validation: { keys: { mode: oneOf('strict', 'permissive'), reject_unknown_fields: isBoolean } },
  title: {
    keys: { storage: oneOf('filename', 'frontmatter'), filename_format: oneOf('slug', 'custom') },
    cross: (s) =>
      s.filename_format === 'custom' && !nonBlank(s.custom_filename_template)
        ? 'custom_filename_template missing'
        : null,
  },
  templating: {
    keys: {
      enabled: isBoolean,
      failure_mode: oneOf('warning_fallback', 'error_abort'),
      unknown_variable_policy: oneOf('preserve', 'error', 'empty'),
    },
    cross: (s) => (s.enabled === true && !nonBlank(s.template_path) ? 'template_path missing' : null),
  },
  reminders: { keys: { date_only_anchor_time: isClockTime, apply_defaults_when_explicit: isBoolean } },
  time_tracking: { keys: { auto_stop_on_complete: isBoolean, auto_stop_notification: isBoolean } },
  status: {
    keys: { values: isStringList },
    cross: (s) => {
      const values = Array.isArray(s.values) ? (s.values as string[]) : [];
      if (typeof s.default === 'string' && values.length > 0 && !values.includes(s.default)) {
        return 'default must be one of status.values';
      }
      if (s.completed_values === undefined) return null;
      if (!Array.isArray(s.completed_values) || s.completed_values.length === 0)
        return 'completed_values must be non-empty';
      if (isStringList(s.completed_values)) return 'completed_values invalid';
      if (values.length > 0 && s.completed_values.some((v) => !values.includes(v as string))) {
        return 'completed_values must be in status.values';
      }
      return null;
    },
  },
  task_detection: { keys: { combine: oneOf('and', 'or') } },
  dependencies: {
    keys: {
      default_reltype: oneOf(...DEPENDENCY_RELTYPES),
      unresolved_target_severity: oneOf('warning', 'error'),
    },
  },
  links: { keys: { extensions: isStringList, unresolved_default_severity: oneOf('warning', 'error') } },
};

/** Throws INVALID naming the first problem of `value` as configuration section `kind`. */
export function validateConfigSection(kind: string, value: Section): void {
  const spec = SECTIONS[kind];
  if (!spec) throw invalid(`config kind unsupported: ${kind}`);
  for (const [key, rule] of Object.entries(spec.keys)) {
    if (value[key] === undefined) continue;
    const problem = rule(value[key]);
    if (problem) throw invalid(`${kind}.${key} ${problem}`);
  }
  const cross = spec.cross?.(value);
  if (cross) throw invalid(`${kind}.${cross}`);
}
