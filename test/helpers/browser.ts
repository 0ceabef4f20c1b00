/**
 * Headless Chromium for browser tests: an installed Chromium (chromium.ts finds it) driven by
 * playwright-core, which downloads no browser. The flags keep Chromium from reaching out to the
 * network. Playwright gives every launch a fresh temporary profile.
 */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { findChromium } from './chromium.js';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Launches Chromium with a fresh profile. When `allowOrigin` is given, every request to another
 * origin is aborted, proving the page needs nothing but the server (no CDN).
 */
export async function launchBrowser(
  options: { allowOrigin?: string; viewport?: { width: number; height: number } } = {},
): Promise<TestBrowser & { blocked: string[] }> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
  const blocked: string[] = [];
  if (options.allowOrigin) {
    const allowed = new URL(options.allowOrigin).origin;
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('data:') || new URL(url).origin === allowed) return route.continue();
      blocked.push(url);
      return route.abort();
    });
  }
  return {
    browser,
    context,
    blocked,
    close: () => browser.close(),
  };
}
