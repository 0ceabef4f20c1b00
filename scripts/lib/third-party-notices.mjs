// Writes the licence notices of the third-party packages that esbuild put into a bundle, read from
// the build's metafile: exactly the packages whose code ships inside the file, each with its
// licence text as the package carries it. (Licence tools for npm list what package.json declares;
// what matters here is what the bundle holds, which only the metafile says.)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** "node_modules/@scope/name/lib/x.js" → "node_modules/@scope/name" (the innermost package). */
function packageDir(input) {
  return /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

/**
 * @param {import('esbuild').Metafile} metafile
 * @param {string} outFile
 * @param {string} bundleName what the notices are for, for the heading
 */
export function writeThirdPartyNotices(metafile, outFile, bundleName) {
  const dirs = new Set(Object.keys(metafile.inputs).map(packageDir).filter(Boolean));
  const packages = new Map();
  for (const dir of dirs) {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const key = `${pkg.name}@${pkg.version}`;
    if (packages.has(key)) continue;
    const files = readdirSync(dir)
      .filter((name) => /^(licen[cs]e|copying|notice)/i.test(name))
      .sort();
    const license = typeof pkg.license === 'string' ? pkg.license : pkg.license?.type;
    if (!license && files.length === 0) throw new Error(`${key} (in ${bundleName}) declares no licence`);
    const texts = files.map((name) => readFileSync(path.join(dir, name), 'utf8').trim());
    packages.set(key, { key, license: license ?? 'see the text below', texts });
  }
  const sorted = [...packages.values()].sort((a, b) => a.key.localeCompare(b.key));
  const rule = '-'.repeat(78);
  const text = [
    `Third-party software bundled into ${bundleName}`,
    '',
    'The code of the packages below is bundled there, each under its own licence.',
    '',
    ...sorted.flatMap(({ key, license, texts }) => [
      rule,
      `${key} (${license})`,
      '',
      ...(texts.length > 0 ? texts.flatMap((t) => [t, '']) : ['(the package carries no licence file)', '']),
    ]),
  ].join('\n');
  writeFileSync(outFile, text);
  return sorted.length;
}
