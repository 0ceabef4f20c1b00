/**
 * Where a vault's server state (settings with webhook secrets, the index snapshot, the event
 * store) lives by default: in the platform's per-user state folder, one folder per vault, so it
 * no longer travels with a synced vault (docs/vault-safety.md). A `<vault>/.taskdown` that
 * already exists keeps being used.
 *
 * - Linux and other Unixes: `$XDG_STATE_HOME/taskdown/<vault>` (`~/.local/state/taskdown/<vault>`)
 * - macOS: `~/Library/Application Support/taskdown/<vault>`
 * - Windows: `%LOCALAPPDATA%\taskdown\<vault>`
 *
 * `<vault>` is the vault folder's name and a hash of its real path, so two vaults of one name get
 * two folders and a vault reached through a link gets the folder of its real path.
 */
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The data dir used before per-user state folders, still used when it exists. */
export const LEGACY_DATA_DIR = '.taskdown';

export interface PlatformInfo {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

const current = (): PlatformInfo => ({ platform: process.platform, env: process.env, home: os.homedir() });

export function defaultDataDir(vault: string, where: PlatformInfo = current()): string {
  const legacy = path.join(vault, LEGACY_DATA_DIR);
  if (statSync(legacy, { throwIfNoEntry: false })?.isDirectory()) return legacy;
  const real = realPath(vault);
  const name =
    path
      .basename(real)
      .replace(/[^\w.-]+/g, '_')
      .slice(0, 40) || 'vault';
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 12);
  return path.join(stateHome(where), 'taskdown', `${name}-${hash}`);
}

function stateHome({ platform, env, home }: PlatformInfo): string {
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA;
    return local && path.win32.isAbsolute(local) ? local : path.join(home, 'AppData', 'Local');
  }
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  // The XDG base directory rules: a relative value is invalid and ignored.
  const xdg = env.XDG_STATE_HOME;
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'state');
}

/** The real path of `target`, or of its deepest existing folder joined with the rest. */
function realPath(target: string): string {
  const resolved = path.resolve(target);
  try {
    return realpathSync.native(resolved);
  } catch {
    const parent = path.dirname(resolved);
    return parent === resolved ? resolved : path.join(realPath(parent), path.basename(resolved));
  }
}
