/**
 * Before it knows the command, the bundle's entry (src/cli/main.ts) evaluates only what every
 * command needs: the command line, the demo vault and the vault walk (docs/performance.md, "Only
 * what the command needs"). Each command's code is an `import()`, evaluated when it runs. This
 * test follows the entry's static imports (type-only ones are erased; `import()` is not followed)
 * and fails naming any package or task-engine module they reach: one such import, the command
 * line's check of `--validation` from the validator's module, once made every command load the
 * validator, the recurrence rules and the `rrule` package first.
 *
 * The same walk from `serve` checks that the server's start evaluates none of the installed
 * dependencies: they are outside the bundle (scripts/build-server.mjs) and load from node_modules
 * without its code cache, so each is loaded where it is first used (undici, rrule, the NLP parser,
 * the MCP SDK, the SQLite driver).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = path.join(ROOT, 'src/cli/main.ts');
const SERVE = path.join(ROOT, 'src/cli/serve.ts');
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

/** The package a bare import specifier names (`@scope/name` or `name`), without its subpath. */
const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Project files and packages reached from `entry` through static, value-carrying imports. */
function staticImports(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const isImport = ts.isImportDeclaration(statement);
      if (!isImport && !ts.isExportDeclaration(statement)) continue;
      if (isImport ? statement.importClause?.isTypeOnly : statement.isTypeOnly) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      if (!specifier.text.startsWith('.')) {
        if (!specifier.text.startsWith('node:')) packages.add(specifier.text);
        continue;
      }
      const target = path.resolve(path.dirname(file), specifier.text).replace(/\.js$/, '.ts');
      if (existsSync(target)) queue.push(target);
    }
  }
  return { files, packages };
}

test('the entry loads no package and no task-engine module before it knows the command', () => {
  const { files, packages } = staticImports(ENTRY);
  assert.deepEqual([...packages], []);
  const engine = [...files]
    .map((file) => path.relative(ROOT, file))
    .filter((file) =>
      /^src\/core\/(tasks|validation\/(?!mode\.ts)|recurrence|query|store|webhooks)/.test(file),
    );
  assert.deepEqual(engine, []);
  // The walk is there on purpose: a start begins reading the vault before the server loads.
  assert.ok(files.has(path.join(ROOT, 'src/core/vault/vault-walk.ts')));
});

test('serve loads no installed dependency before it is used', () => {
  const installed = new Set([
    ...Object.keys(PACKAGE.dependencies ?? {}),
    ...Object.keys(PACKAGE.optionalDependencies ?? {}),
  ]);
  const { packages } = staticImports(SERVE);
  assert.ok(packages.has('fastify'), 'the walk reaches the server');
  assert.deepEqual(
    [...packages].filter((specifier) => installed.has(packageOf(specifier))),
    [],
  );
});
