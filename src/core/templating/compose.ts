/**
 * Combining a template with the caller's task at creation (templating profile): the caller's
 * frontmatter wins and the template only fills keys the caller did not set; the template body is
 * used when it has content, else the caller's body. A template that cannot be used either aborts
 * the creation (`error_abort`, also spelled `error`) or is skipped with a warning (`warning_fallback`, the default).
 */
import { invalid } from '../errors.js';

export type TemplateFailureMode = 'warning_fallback' | 'error_abort';

/** Spec defaults of the `templating` configuration section. */
export const TEMPLATING_DEFAULTS = Object.freeze({
  failure_mode: 'warning_fallback' as TemplateFailureMode,
  unknown_variable_policy: 'preserve' as const,
});

/** The task's keys, then the template's keys the task does not have (TaskNotes' key order). */
export function mergeTemplateFrontmatter(
  base: Record<string, unknown>,
  template: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...base };
  for (const [key, value] of Object.entries(template)) if (!Object.hasOwn(merged, key)) merged[key] = value;
  return merged;
}

export function composeFromTemplate(input: {
  baseFrontmatter: Record<string, unknown>;
  templateFrontmatter: Record<string, unknown>;
  callerBody: string;
  templateBody: string;
}): { frontmatter: Record<string, unknown>; body: string } {
  return {
    frontmatter: mergeTemplateFrontmatter(input.baseFrontmatter, input.templateFrontmatter),
    body: input.templateBody.trim() !== '' ? input.templateBody : input.callerBody,
  };
}

/** What to do when the template failed with `code`: fall back, or throw INVALID with the code. */
export function onTemplateFailure(mode: string, code: string): { mode: 'fallback' } {
  if (mode === 'warning_fallback') return { mode: 'fallback' };
  if (mode === 'error' || mode === 'error_abort') throw invalid(code);
  throw invalid(`templating.failure_mode invalid: ${mode}`);
}

/** A templating profile claim needs create-time templating, failure modes and the variable set. */
export function templatingClaimIssue(support: {
  createTimeTemplating: boolean;
  failureMode: boolean;
  variableSet: boolean;
}): string | null {
  return support.createTimeTemplating && support.failureMode && support.variableSet
    ? null
    : 'templating.claim_requirements_failed';
}
