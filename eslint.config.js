// Flat config: typed linting for src/test/bench, plain recommended rules for scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'vault/**', 'bench/.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // ARCHITECTURE.md: the domain knows no transport.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/http/**', '**/cli/**', '**/web/**'], message: 'core/ must not import adapters.' },
            { group: ['fastify', '@fastify/*', 'preact', 'preact/*'], message: 'core/ is framework-free.' },
          ],
        },
      ],
    },
  },
  {
    // Routes call services; only services emit events.
    files: ['src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/core/events/bus*'], message: 'HTTP code must not emit events; call a service.' },
          ],
        },
      ],
    },
  },
  {
    // MCP tools are adapters like routes: they call the services the routes use, nothing below them.
    files: ['src/mcp/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', '**/cli/**', '**/web/**'],
              message: 'mcp/ is an adapter beside http/, not above it.',
            },
            { group: ['**/core/events/bus*'], message: 'MCP tools must not emit events; call a service.' },
            {
              group: ['**/core/vault/*', '**/core/store/*', '**/core/state/*'],
              message: 'MCP tools call services, never the vault, the store or state files directly.',
            },
          ],
        },
      ],
    },
  },
  {
    // Webhooks see events and the vault read API, never the task engine's internals.
    files: ['src/core/webhooks/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/http/**', '**/cli/**', '**/web/**'], message: 'core/ must not import adapters.' },
            {
              group: ['**/core/tasks/*', '../tasks/*', '!../tasks/task-info*'],
              message: 'webhooks only see events.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON response bodies of many shapes; `any` keeps assertions readable there.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['scripts/**', 'conformance/**', 'bench/**', 'src/cli/**', 'test/**'],
    rules: { 'no-console': 'off' },
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
