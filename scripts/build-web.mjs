// Bundles the settings page (src/web) into dist/web with esbuild. Until the page exists this
// only creates the folder, so the server's static route has a stable location.
import { mkdirSync, existsSync } from 'node:fs';

mkdirSync('dist/web', { recursive: true });
if (existsSync('src/web/main.tsx')) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: ['src/web/main.tsx'],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'esm',
    target: ['es2020'],
    outdir: 'dist/web',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
}
