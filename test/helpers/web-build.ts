/**
 * Makes sure dist/web (the settings page bundle the server serves) is built from the current
 * src/web. `npm test` builds first, so this is usually a no-op; it matters when one test file
 * is run on its own after editing the page. A lock folder keeps two test files that start at
 * once from building over each other.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'src/web');
const BUILT = path.join(ROOT, 'dist/web/index.html');
const LOCK = path.join(ROOT, 'dist/.web-build.lock');
const STALE_LOCK_MS = 60_000;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(file) : statSync(file).mtimeMs);
  }
  return newest;
}

const isFresh = (): boolean => existsSync(BUILT) && statSync(BUILT).mtimeMs >= newestSource(SRC);

export async function ensureWebBuild(): Promise<void> {
  if (isFresh()) return;
  mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      const held = statSync(LOCK, { throwIfNoEntry: false });
      // A lock left behind by a killed run must not block every later run.
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmdirSync(LOCK);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    // Another test file may have built it while this one waited for the lock.
    if (!isFresh())
      execFileSync(process.execPath, ['scripts/build-web.mjs'], { cwd: ROOT, stdio: 'inherit' });
  } finally {
    rmdirSync(LOCK);
  }
}
