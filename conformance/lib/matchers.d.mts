// Types of the assertion logic (matchers.mjs) for TypeScript callers.
import type { Envelope } from '../adapter.mjs';
import type { Fixture } from './suite.mjs';

export declare function deepMatch(
  actual: unknown,
  expected: unknown,
  context: { input: unknown },
  path?: string,
): string | null;
export declare function applyAssertion(fixture: Fixture, envelope: Envelope): string | null;
