// Bundles the settings page (src/web) into dist/web with esbuild, at build time: the package
// serves these files itself (no CDN), so the page works offline.
//   dist/web/index.html            the page (served at /)
//   dist/web/assets/main.js(.map)  the Preact app
//   dist/web/assets/styles.css     the stylesheet
//   dist/web/assets/favicon.svg
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/web';
// Start clean so a file removed from src/web is not served from an old build.
rmSync(OUT, { recursive: true, force: true });
mkdirSync(`${OUT}/assets`, { recursive: true });

await build({
  entryPoints: ['src/web/main.tsx'],
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: ['es2020'],
  outdir: `${OUT}/assets`,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});

copyFileSync('src/web/index.html', `${OUT}/index.html`);
copyFileSync('src/web/styles.css', `${OUT}/assets/styles.css`);
copyFileSync('src/web/favicon.svg', `${OUT}/assets/favicon.svg`);
