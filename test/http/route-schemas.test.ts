// The request validators skip Ajv's run-time meta-schema check (src/http/validation.ts); this is
// that check, once, for every schema of every route.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { allRoutes } from '../../src/http/routes/index.js';

const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (
  ajv: Ajv,
) => Ajv;

describe('route schemas', () => {
  const ajv = new Ajv({ strict: false, allErrors: true, addUsedSchema: false });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });

  for (const route of allRoutes) {
    it(`${route.method} ${route.url}: every schema is valid JSON Schema and compiles`, () => {
      const parts: Array<[string, unknown]> = [
        ['params', route.params],
        ['querystring', route.querystring],
        ['body', route.body],
        ...Object.entries(route.responses).map(([status, schema]): [string, unknown] => [
          `response ${status}`,
          schema,
        ]),
      ];
      for (const [part, schema] of parts) {
        if (schema === undefined) continue;
        const valid = ajv.validateSchema(schema as object);
        assert.ok(valid, `${part}: ${ajv.errorsText(ajv.errors)}`);
        assert.doesNotThrow(() => ajv.compile(schema as object), part);
      }
    });
  }
});
