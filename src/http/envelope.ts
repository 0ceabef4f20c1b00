/** The response envelope of docs/api-decisions.md, in one place. */
import { Type, type TSchema } from '@sinclair/typebox';

export const successBody = (data: unknown): string => JSON.stringify({ success: true, data });
export const errorBody = (message: string, data?: unknown): string =>
  JSON.stringify(
    data === undefined ? { success: false, error: message } : { success: false, error: message, data },
  );

/** OpenAPI schema of a success envelope around `data`. */
export const SuccessEnvelope = (data: TSchema, description = 'Success'): TSchema =>
  Type.Object({ success: Type.Literal(true), data }, { description });

export const ErrorEnvelope = (description: string): TSchema =>
  Type.Object({ success: Type.Literal(false), error: Type.String() }, { description });
