/**
 * Finds the Chromium that the browser tests drive (playwright-core downloads no browser): the
 * path in CHROMIUM_PATH, else the first Chromium (or Chrome) on PATH, else the usual install
 * locations, Playwright's own browser folder included. With none, the browser tests fail at once
 * with one line saying how to install it; they are never skipped.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const INSTALL_HINT =
  'install it (Debian/Ubuntu: sudo apt-get install chromium; macOS: brew install --cask chromium; ' +
  'any system: npx playwright-core install chromium) or set CHROMIUM_PATH to its executable';

/** Executable names looked up on PATH, Chromium first. */
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];

export interface Lookup {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
  isExecutable(file: string): boolean;
  /** Entries of a folder, [] when it does not exist. */
  list(dir: string): string[];
}

const systemLookup: Lookup = {
  env: process.env,
  platform: process.platform,
  home: os.homedir(),
  isExecutable(file) {
    try {
      if (!statSync(file).isFile()) return false;
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  list(dir) {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
};

function usualLocations(lookup: Lookup): string[] {
  const { env, platform, home } = lookup;
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      path.join(home, 'Applications/Chromium.app/Contents/MacOS/Chromium'),
    ];
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter(
      (root): root is string => Boolean(root),
    );
    return roots.flatMap((root) => [
      path.win32.join(root, 'Chromium', 'Application', 'chrome.exe'),
      path.win32.join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
    ]);
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/lib/chromium/chromium',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
  ];
}

/** Chromium builds that `playwright install chromium` put in its browser folder, newest first. */
function playwrightBrowsers(lookup: Lookup): string[] {
  const { env, platform, home } = lookup;
  const root =
    env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== '0'
      ? env.PLAYWRIGHT_BROWSERS_PATH
      : platform === 'darwin'
        ? path.join(home, 'Library', 'Caches', 'ms-playwright')
        : platform === 'win32'
          ? path.win32.join(env.LOCALAPPDATA ?? home, 'ms-playwright')
          : path.join(home, '.cache', 'ms-playwright');
  const builds = lookup
    .list(root)
    .filter((name) => /^chromium-\d+$/.test(name))
    .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  const inside =
    platform === 'darwin'
      ? ['chrome-mac/Chromium.app/Contents/MacOS/Chromium']
      : platform === 'win32'
        ? ['chrome-win/chrome.exe']
        : ['chrome-linux/chrome', 'chrome-linux64/chrome'];
  return builds.flatMap((build) => inside.map((rel) => path.join(root, build, rel)));
}

/** The Chromium executable to use; throws one line saying how to get one when there is none. */
export function findChromium(lookup: Lookup = systemLookup): string {
  const given = lookup.env.CHROMIUM_PATH;
  if (given) {
    if (lookup.isExecutable(given)) return given;
    throw new Error(`CHROMIUM_PATH=${given} is not an executable file: ${INSTALL_HINT}`);
  }
  const dirs = (lookup.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const suffix = lookup.platform === 'win32' ? '.exe' : '';
  const candidates = [
    ...PATH_NAMES.flatMap((name) => dirs.map((dir) => path.join(dir, name + suffix))),
    ...usualLocations(lookup),
    ...playwrightBrowsers(lookup),
  ];
  const found = candidates.find((file) => lookup.isExecutable(file));
  if (found) return found;
  throw new Error(
    `The browser tests need Chromium, and none was found (CHROMIUM_PATH, PATH, usual locations): ${INSTALL_HINT}`,
  );
}
