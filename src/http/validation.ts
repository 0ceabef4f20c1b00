/**
 * Request validation compilers. Bodies are validated strictly (no type coercion: a PUT with
 * `"timeEstimate":"5"` is a 400 naming the field, not a silent conversion); query strings and
 * path parameters arrive as text and are coerced to the declared types.
 *
 * Schemas may carry an `errorMessage` annotation: when validation of that schema (or of a
 * required property pointing at it) fails, the message is returned verbatim. That is how the
 * reference's exact messages ("URL is required and must be a string") live in the schema.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS with `exports.default`: under Node's ESM loader the default import is
// the whole `exports` object, in the bundle (esbuild interop) it is the plugin itself.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (
  ajv: Ajv,
) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    verbose: true, // keeps parentSchema on errors, needed to find `errorMessage`
    addUsedSchema: false,
    strict: false,
    // The route schemas are built with TypeBox here (test/http/route-schemas.test.ts checks each
    // against the meta-schema); checking them again at run time compiled the meta-schema on the
    // first request, ~40 ms of the first answer after a start.
    validateSchema: false,
    // Ajv's passes that tidy the generated code before it is compiled: they took half of the
    // first request's validator compile (`GET /api/tasks`' query string: 18-19 -> 10 ms, Node
    // 20.20, first start of the 10,000-task bench vault), and the validators run as fast without
    // them (54-69 ns a call either way, 10^6 calls of that schema).
    code: { optimize: false },
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

/**
 * Marks a body schema as documentation only: the handler checks the body itself, with messages
 * the schema could not give (a FilterQuery's 400 names the node, `root.children[1]`, which Ajv's
 * error for an enum deep in a recursive schema does not).
 */
const VALIDATED_BY_HANDLER = 'x-validated-by-handler';

export const validatedByHandler = <T extends object>(schema: T): T => ({
  ...schema,
  [VALIDATED_BY_HANDLER]: true,
});

/**
 * Compiles on first use: compiling every route's schemas at startup took ~0.2 s of the cold start,
 * while most servers only ever see a few of the 40 routes. Fastify reads `errors` off the
 * returned function after a failed call, so the wrapper mirrors them.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if ((schema as Record<string, unknown>)[VALIDATED_BY_HANDLER] === true) return () => true;
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown): boolean => {
    compiled ??= ajv.compile(schema as object);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = undefined as ValidateFunction['errors'];
  return validate;
};

/** Human-readable message for the first validation error, naming the field. */
export function describeValidationError(errors: ErrorObject[], part: string | undefined): string {
  const first = errors[0];
  if (!first) return 'Invalid request';
  const parent = first.parentSchema as
    { errorMessage?: string; properties?: Record<string, unknown> } | undefined;
  if (first.keyword === 'required') {
    const missing = (first.params as { missingProperty: string }).missingProperty;
    const propSchema = parent?.properties?.[missing] as { errorMessage?: string } | undefined;
    if (propSchema?.errorMessage) return propSchema.errorMessage;
    return `Missing required ${part ?? 'body'} field "${missing}"`;
  }
  if (parent?.errorMessage) return parent.errorMessage;
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where = field ? `${part ?? 'body'} field "${field}"` : (part ?? 'body');
  if (first.keyword === 'additionalProperties') {
    const extra = (first.params as { additionalProperty: string }).additionalProperty;
    return `Unknown ${part ?? 'body'} field "${field ? `${field}.` : ''}${extra}"`;
  }
  return `Invalid ${where}: ${first.message ?? 'is not valid'}`;
}
