/**
 * The structured operation error of tasknotes-spec §5.18: operation name, code, message and an
 * optional field. Blank parts fall back to `unknown` / the code, so the shape is always complete.
 *
 * Adapter only: the API answers errors with its own envelope (`{success:false,error}`, plus
 * `issues` for a refused write); this is the suite's structured shape.
 */
export interface OperationError {
  operation: string;
  code: string;
  message: string;
  field?: string;
}

export function operationError(parts: {
  operation?: string;
  code?: string;
  message?: string;
  field?: string;
}): OperationError {
  const nonBlank = (v: string | undefined): string | undefined => (v && v.trim() !== '' ? v : undefined);
  const code = nonBlank(parts.code) ?? 'unknown_error';
  return {
    operation: nonBlank(parts.operation) ?? 'unknown',
    code,
    message: nonBlank(parts.message) ?? code,
    ...(nonBlank(parts.field) ? { field: parts.field } : {}),
  };
}
