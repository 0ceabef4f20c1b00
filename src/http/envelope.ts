/** The response envelope of docs/api-decisions.md, in one place. */
import { Type, type TSchema } from '@sinclair/typebox';

export const successBody = (data: unknown): string => JSON.stringify({ success: true, data });
/** An error envelope; `data` (a failed precondition's task) and `issues` (a refused write) when given. */
export const errorBody = (message: string, data?: unknown, issues?: unknown): string =>
  JSON.stringify({
    success: false,
    error: message,
    ...(data === undefined ? {} : { data }),
    ...(issues === undefined ? {} : { issues }),
  });

/** OpenAPI schema of a success envelope around `data`. */
export const SuccessEnvelope = (data: TSchema, description = 'Success'): TSchema =>
  Type.Object({ success: Type.Literal(true), data }, { description });

const ValidationIssue = Type.Object({
  code: Type.String({ description: 'tasknotes-spec issue code, e.g. invalid_date_value' }),
  severity: Type.String({ description: 'error | warning | info' }),
  field: Type.Optional(Type.String({ description: 'Request field, e.g. due or blockedBy[0]' })),
  message: Type.Optional(Type.String()),
});

export const ErrorEnvelope = (description: string): TSchema =>
  Type.Object(
    {
      success: Type.Literal(false),
      error: Type.String({ description: 'For a refused task write: "<field>: <message>"' }),
      issues: Type.Optional(
        Type.Array(ValidationIssue, { description: 'Every validation error of a refused task write' }),
      ),
    },
    { description },
  );
