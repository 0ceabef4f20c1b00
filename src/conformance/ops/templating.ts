/** templating.* — create-time templates (templating profile) over src/core/templating. */
import {
  TEMPLATING_DEFAULTS,
  composeFromTemplate,
  mergeTemplateFrontmatter,
  onTemplateFailure,
  templatingClaimIssue,
} from '../../core/templating/compose.js';
import { splitTemplate } from '../../core/templating/sections.js';
import {
  expandTemplate,
  taskTemplateVariables,
  templateTokens,
  type UnknownVariablePolicy,
} from '../../core/templating/variables.js';
import { attempt, errResult, okResult } from '../envelope.js';
import { record, str } from '../input.js';
import type { OpTable } from '../types.js';

const POLICIES: readonly string[] = ['preserve', 'empty', 'error'];

/**
 * The variables for a fixture's `values`: the standard set for a task created at the given date
 * and time (else now), with every value given as text or number taking precedence.
 */
function variablesOf(values: Record<string, unknown>): Record<string, string> {
  const date =
    typeof values.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(values.date) ? values.date : undefined;
  const time = typeof values.time === 'string' && /^\d{2}:\d{2}$/.test(values.time) ? values.time : '00:00';
  const now = date ? new Date(`${date}T${time}:00`) : new Date();
  const given: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string' || typeof value === 'number') given[key] = String(value);
  }
  return { ...taskTemplateVariables({ tags: given.tags }, now), ...given };
}

export const templatingOps: OpTable = {
  'templating.parse_sections': (input) => okResult(splitTemplate(str(record(input).templateText))),
  'templating.expand_variables': (input) => {
    const p = record(input);
    const policy = str(p.unknownVariablePolicy) || TEMPLATING_DEFAULTS.unknown_variable_policy;
    if (!POLICIES.includes(policy)) return errResult(`templating.unknown_variable_policy invalid: ${policy}`);
    return attempt(() => ({
      value: expandTemplate(str(p.template), variablesOf(record(p.values)), policy as UnknownVariablePolicy),
    }));
  },
  'templating.tokenize': (input) => okResult({ tokens: templateTokens(str(record(input).template)) }),
  'templating.merge_frontmatter': (input) => {
    const p = record(input);
    return okResult({
      value: mergeTemplateFrontmatter(record(p.baseFrontmatter), record(p.templateFrontmatter)),
    });
  },
  'templating.create_pipeline': (input) => {
    const p = record(input);
    return okResult(
      composeFromTemplate({
        baseFrontmatter: record(p.baseFrontmatter),
        templateFrontmatter: record(p.templateFrontmatter),
        callerBody: str(p.callerBody),
        templateBody: str(p.templateBody),
      }),
    );
  },
  'templating.handle_failure': (input) => {
    const p = record(input);
    return attempt(() =>
      onTemplateFailure(
        str(p.failureMode) || TEMPLATING_DEFAULTS.failure_mode,
        str(p.errorCode) || 'template_error',
      ),
    );
  },
  'templating.config_defaults': () => okResult({ ...TEMPLATING_DEFAULTS }),
  'templating.profile_claim_requirements': (input) => {
    const p = record(input);
    const issue = templatingClaimIssue({
      createTimeTemplating: p.supports_create_time_templating === true,
      failureMode: p.supports_failure_mode === true,
      variableSet: p.supports_variable_set === true,
    });
    return issue ? errResult(issue) : okResult({ value: 'claim_valid' });
  },
};
