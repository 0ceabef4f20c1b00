/** Package and interface versions, read once from package.json (works from src/ and dist/src/). */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The TaskNotes HTTP API interface release this server implements (40 routes). */
export const INTERFACE_VERSION = '4.13.6';

function findPackageJson(): { version: string } {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version: string };
      if (pkg.name === 'taskdown') return pkg;
    }
    dir = path.dirname(dir);
  }
  return { version: '0.0.0' };
}

export const VERSION = findPackageJson().version;

/** Absolute folder of the installed package (holds package.json, dist/web). */
export const PACKAGE_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    dir = path.dirname(dir);
  }
  return process.cwd();
})();
