/**
 * One implementation: every module under src/core is part of the server. The test walks the
 * import graph from the server's entries (src/cli/main.ts, the bundle's entry, and the programs of
 * the reader and ICS threads, bundled beside it: scripts/build-server.mjs) — static imports,
 * re-exports and `import('…')` of project files alike, the way the bundler follows them — and
 * fails naming any src/core module it does not reach. A module that only the conformance adapter
 * or tests need belongs under src/conformance or test. The NLP parser (tasknotes-nlp-core) is a
 * package loaded on first use, not a project file, so it is no edge here.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = path.join(ROOT, 'src/cli/main.ts');
const THREADS = ['src/core/vault/note-reader-thread.ts', 'src/core/calendars/ics-parse-thread.ts'].map((f) =>
  path.join(ROOT, f),
);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = path.join(dir, name);
    return statSync(abs).isDirectory() ? walk(abs) : [abs];
  });
}

/** The project file an import specifier names (`./x.js` is the source `./x.ts`), or undefined. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, base]) {
    if (candidate.endsWith('.ts') || candidate.endsWith('.tsx')) {
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

function reachable(...entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    // Static imports, export-from, dynamic import() and require() with a literal specifier.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const target = resolveSpecifier(file, fileName);
      if (target !== undefined) queue.push(target);
    }
  }
  return seen;
}

test('every src/core module is reachable from the server entry', () => {
  const loaded = reachable(ENTRY, ...THREADS);
  const core = walk(path.join(ROOT, 'src/core')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const unreachable = core.filter((f) => !loaded.has(f)).map((f) => path.relative(ROOT, f));
  assert.deepEqual(unreachable, [], `src/core modules the server never loads:\n${unreachable.join('\n')}`);
});

test('the graph walk follows static, re-exported and dynamic imports', () => {
  const loaded = reachable(ENTRY);
  // Static: the task service; dynamic: the MCP transport the route imports on first use.
  assert.ok(loaded.has(path.join(ROOT, 'src/core/tasks/task-service.ts')));
  assert.ok(loaded.has(path.join(ROOT, 'src/mcp/streamable-http.ts')));
  // The conformance dispatcher is the adapter's, not the server's.
  assert.ok(!loaded.has(path.join(ROOT, 'src/conformance/execute.ts')));
});
