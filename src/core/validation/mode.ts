/**
 * The validation modes of task writes (write-check.ts): in a module of their own, so that the
 * command line can check `--validation` without loading the validator (and, through it, the
 * recurrence rules and their package) before it knows the command.
 */
export type ValidationMode = 'strict' | 'permissive';

export function isValidationMode(value: unknown): value is ValidationMode {
  return value === 'strict' || value === 'permissive';
}
