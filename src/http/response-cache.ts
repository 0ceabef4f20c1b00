/**
 * Encoded response bodies derived from the task index, valid while the index version is
 * unchanged. A repeated `GET /api/tasks?limit=50` then costs a lookup instead of building and
 * UTF-8 encoding ~13 kB of JSON (and the garbage that leaves), which kept that route under 70%
 * of a bare node:http server. Entries are per task service (in-process tests run several
 * servers) and dropped as a whole when its version moves; the key count is bounded.
 */
import type { RawResult } from './route.js';

/** What the cache needs from the task service: a version that changes with every index change. */
export interface Versioned {
  readonly version: number;
}

const MAX_ENTRIES = 64;

export class ResponseCache {
  private readonly byOwner = new WeakMap<Versioned, { version: number; bodies: Map<string, RawResult> }>();

  /** The cached result for `key`, or `build()`'s result with its body encoded once. */
  get(owner: Versioned, key: string, build: () => RawResult): RawResult {
    let entry = this.byOwner.get(owner);
    if (entry?.version !== owner.version) {
      entry = { version: owner.version, bodies: new Map() };
      this.byOwner.set(owner, entry);
    }
    let result = entry.bodies.get(key);
    if (!result) {
      const built = build();
      result =
        typeof built.body === 'string'
          ? // Same header as for the string body, for which Fastify adds the charset itself.
            { ...built, body: Buffer.from(built.body), contentType: `${built.contentType}; charset=utf-8` }
          : built;
      if (entry.bodies.size >= MAX_ENTRIES) entry.bodies.clear();
      entry.bodies.set(key, result);
    }
    return result;
  }
}
