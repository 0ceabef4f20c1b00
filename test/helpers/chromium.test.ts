/** How the browser tests find Chromium, and the one line they fail with when there is none. */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { launchBrowser } from './browser.js';
import { findChromium, INSTALL_HINT, type Lookup } from './chromium.js';

function lookup(executables: string[], overrides: Partial<Lookup> = {}): Lookup {
  const files = new Set(executables);
  return {
    env: {},
    platform: 'linux',
    home: '/home/u',
    isExecutable: (file) => files.has(file),
    list: (dir) => [
      ...new Set(
        [...files].filter((f) => f.startsWith(dir + '/')).map((f) => f.slice(dir.length + 1).split('/')[0]!),
      ),
    ],
    ...overrides,
  };
}

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, even when others exist', () => {
    const l = lookup(['/opt/c/chrome', '/usr/bin/chromium'], {
      env: { CHROMIUM_PATH: '/opt/c/chrome', PATH: '/usr/bin' },
    });
    assert.equal(findChromium(l), '/opt/c/chrome');
  });

  it('fails at once when CHROMIUM_PATH names no executable, instead of looking elsewhere', () => {
    const l = lookup(['/usr/bin/chromium'], { env: { CHROMIUM_PATH: '/nowhere/chromium' } });
    assert.throws(() => findChromium(l), {
      message: `CHROMIUM_PATH=/nowhere/chromium is not an executable file: ${INSTALL_HINT}`,
    });
  });

  it('then looks on PATH, Chromium before Chrome, in PATH order', () => {
    const l = lookup(['/a/google-chrome', '/b/chromium', '/c/chromium'], {
      env: { PATH: ['/a', '/b', '/c'].join(path.delimiter) },
    });
    assert.equal(findChromium(l), '/b/chromium');
  });

  it('then in the usual install locations', () => {
    assert.equal(findChromium(lookup(['/snap/bin/chromium'], { env: { PATH: '/x' } })), '/snap/bin/chromium');
    const mac = lookup(['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'], {
      platform: 'darwin',
    });
    assert.equal(findChromium(mac), '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
  });

  it("then in Playwright's browser folder, newest build first", () => {
    const l = lookup([
      '/home/u/.cache/ms-playwright/chromium-1100/chrome-linux/chrome',
      '/home/u/.cache/ms-playwright/chromium-1200/chrome-linux64/chrome',
    ]);
    assert.equal(findChromium(l), '/home/u/.cache/ms-playwright/chromium-1200/chrome-linux64/chrome');
    const custom = lookup(['/pw/chromium-7/chrome-linux/chrome'], {
      env: { PLAYWRIGHT_BROWSERS_PATH: '/pw' },
    });
    assert.equal(findChromium(custom), '/pw/chromium-7/chrome-linux/chrome');
  });

  it('with none anywhere, throws one line that says how to install it', () => {
    const err = (() => {
      try {
        findChromium(lookup([], { env: { PATH: '/usr/bin' } }));
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    assert.ok(err);
    assert.doesNotMatch(err.message, /\n/);
    assert.match(err.message, /need Chromium.*apt-get install chromium.*CHROMIUM_PATH/);
  });

  it('makes launchBrowser fail before starting anything when there is no Chromium', async () => {
    const saved = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = '/nowhere/chromium';
    try {
      await assert.rejects(launchBrowser(), /CHROMIUM_PATH=\/nowhere\/chromium is not an executable file/);
    } finally {
      if (saved === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = saved;
    }
  });
});
