// Bundles the settings page (src/web) into dist/web with esbuild, at build time: the package
// serves these files itself (no CDN), so the page works offline.
//   dist/web/index.html            the page (served at /)
//   dist/web/assets/main.js(.map)  the Preact app (the package does not ship the map)
//   dist/web/THIRD-PARTY-NOTICES.txt  licences of the packages bundled into main.js
//   dist/web/assets/styles.css     the stylesheet
//   dist/web/assets/favicon.svg
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { writeThirdPartyNotices } from './lib/third-party-notices.mjs';

const OUT = 'dist/web';
// Start clean so a file removed from src/web is not served from an old build.
rmSync(OUT, { recursive: true, force: true });
mkdirSync(`${OUT}/assets`, { recursive: true });

const web = await build({
  entryPoints: ['src/web/main.tsx'],
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: ['es2020'],
  outdir: `${OUT}/assets`,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  // The licence notices of what is bundled are written beside the page (below).
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
writeThirdPartyNotices(web.metafile, `${OUT}/THIRD-PARTY-NOTICES.txt`, `${OUT}/assets/main.js`);

copyFileSync('src/web/index.html', `${OUT}/index.html`);
copyFileSync('src/web/styles.css', `${OUT}/assets/styles.css`);
copyFileSync('src/web/favicon.svg', `${OUT}/assets/favicon.svg`);
