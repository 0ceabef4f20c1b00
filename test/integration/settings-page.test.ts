/**
 * The settings page end to end: headless Chromium (playwright-core on the installed Chromium)
 * against the real server process and a real webhook receiver. Every request the page makes to
 * another origin is aborted, so passing also proves the page needs no CDN.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { openDatabase } from '../../src/core/store/sqlite.js';
import { launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestServer, type TestServer } from '../helpers/server-process.js';
import { ensureWebBuild } from '../helpers/web-build.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** How long "no delivery arrives" is watched; deliveries normally arrive in a few ms. */
const QUIET_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HOLIDAYS_ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//taskdown test//EN',
  'BEGIN:VEVENT',
  'UID:holiday-1@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;VALUE=DATE:20261225',
  'SUMMARY:Christmas Day',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:holiday-2@test',
  'DTSTART:never',
  'SUMMARY:Boxing Day',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('settings page in Chromium', () => {
  let server: TestServer;
  let receiver: Receiver;
  let browser: TestBrowser & { blocked: string[] };
  let page: Page;
  let secret = '';
  let tasks = 0;

  const createTask = async (): Promise<void> => {
    const res = await server.request('POST', '/api/tasks', { title: `Settings page task ${++tasks}` });
    assert.equal(res.status, 201, res.text);
  };
  const card = () => page.locator('article.webhook', { hasText: receiver.url });
  const apiHooks = async () => (await server.request('GET', '/api/webhooks')).body.data.webhooks as any[];

  before(async () => {
    await ensureWebBuild();
    server = await startTestServer({ files: { 'Calendars/holidays.ics': HOLIDAYS_ICS } });
    receiver = await startReceiver();
    browser = await launchBrowser({ allowOrigin: server.url });
    page = await browser.context.newPage();
    // Playwright's own default (30 s): a browser test beside the others on a loaded 2-core CI
    // machine can take several times as long as alone; a short wait makes that a failure.
    page.setDefaultTimeout(30_000);
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Taskdown settings' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.cleanup();
  });

  it('validates the Add webhook form, then shows the generated secret once', async () => {
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    await dialog.waitFor();
    // All 14 events of the catalogue are offered, recurring.instance.skipped included.
    assert.equal(await dialog.getByRole('checkbox').count(), 14);
    await dialog.getByRole('checkbox', { name: 'recurring.instance.skipped' }).waitFor();

    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await dialog.getByText('Webhook URL is required').waitFor();
    await dialog.getByText('Please select at least one event').waitFor();
    assert.equal(await dialog.getByLabel('URL').evaluate((el) => el === document.activeElement), true);
    await dialog.getByLabel('URL').fill('not a url');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await dialog.getByText('Enter an absolute http:// or https:// URL').waitFor();
    assert.equal((await apiHooks()).length, 0);

    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByRole('checkbox', { name: 'task.created' }).check();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();

    const reveal = page.getByRole('dialog', { name: 'Webhook Secret Generated' });
    await reveal.waitFor();
    secret = await reveal.getByLabel('Webhook secret').inputValue();
    assert.match(secret, /^[0-9a-f]{64}$/);
    const store = openDatabase(path.join(server.dataDir, 'taskdown.sqlite'), { readonly: true });
    try {
      assert.deepEqual(store.prepare('SELECT secret FROM webhooks').all(), [{ secret }]);
    } finally {
      store.close();
    }
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await reveal.getByRole('button', { name: 'Copy' }).click();
    await reveal.getByText('Copied to the clipboard.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await reveal.getByRole('button', { name: 'Got it' }).click();
    await reveal.waitFor({ state: 'detached' });
    // Once closed, the secret is nowhere on the page.
    assert.ok(!(await page.content()).includes(secret));
    await page.getByText('Webhook created successfully').waitFor();
    await card().getByText('Active', { exact: true }).waitFor();
  });

  it('a task created through the API reaches the receiver, signed with that secret', async () => {
    await createTask();
    const [delivery] = await receiver.waitFor(1);
    assert.equal(delivery!.headers['x-service-event'], 'task.created');
    const expected = createHmac('sha256', secret).update(delivery!.raw).digest('hex');
    assert.equal(delivery!.headers['x-service-signature'], expected);
    // The card's counter and the delivery log update on their own (live activity stream).
    await card().getByText('Success: 1').waitFor();
    const row = page.locator(`tr[data-delivery-id="${delivery!.headers['x-service-delivery-id']}"]`);
    await row.getByText('success').waitFor();
    await row.getByRole('cell', { name: '200', exact: true }).waitFor();
  });

  it('reloads the log only when the server says deliveries changed, never on a timer', async () => {
    await page.locator('[data-live="live"]').waitFor();
    // Notices of the previous test's delivery (merged over 250 ms) have come and gone.
    await sleep(1000);
    const logReads: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().includes('/settings-api/webhooks/deliveries')) logReads.push(request.url());
    };
    page.on('request', onRequest);
    try {
      // The page used to poll every 2 s: 3 quiet seconds would have shown a read.
      await sleep(3000);
      assert.deepEqual(logReads, [], 'the log was read with nothing changed');
      const before = receiver.requests.length;
      await createTask();
      const deliveries = await receiver.waitFor(before + 1);
      const id = deliveries.at(-1)!.headers['x-service-delivery-id'];
      await page.locator(`tr[data-delivery-id="${id}"]`).getByText('success').waitFor();
      assert.ok(logReads.length >= 1);
    } finally {
      page.off('request', onRequest);
    }
  });

  it('a disabled webhook receives nothing; re-enabling delivers again', async () => {
    await card()
      .getByRole('switch', { name: /Enabled/ })
      .uncheck();
    await card().getByText('Inactive', { exact: true }).waitFor();
    await page.getByText('Webhook disabled').waitFor();
    assert.equal((await apiHooks())[0].active, false);
    const before = receiver.requests.length;
    await createTask();
    await sleep(QUIET_MS);
    assert.equal(receiver.requests.length, before);

    await card()
      .getByRole('switch', { name: /Enabled/ })
      .check();
    await card().getByText('Active', { exact: true }).waitFor();
    await createTask();
    await receiver.waitFor(before + 1);
  });

  it('edits the events through the Edit webhook dialog', async () => {
    await card().getByRole('button', { name: /Edit/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit webhook' });
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel('URL').inputValue(), receiver.url);
    await dialog.getByRole('checkbox', { name: 'task.created' }).uncheck();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('Please select at least one event').waitFor();
    await dialog.getByRole('checkbox', { name: 'task.completed' }).check();
    await dialog.getByRole('checkbox', { name: 'task.deleted' }).check();
    await dialog.getByLabel('Transform file').fill('templates/hook.json');
    await dialog.getByRole('switch', { name: 'Include custom headers' }).uncheck();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });

    await card().getByText('task.completed').waitFor();
    await card().getByText('templates/hook.json').waitFor();
    await card().getByText('Custom headers are disabled.').waitFor();
    const [hook] = await apiHooks();
    assert.deepEqual(hook.events, ['task.completed', 'task.deleted']);
    assert.equal(hook.transformFile, 'templates/hook.json');
    assert.equal(hook.corsHeaders, false);
    // No longer subscribed to task.created.
    const before = receiver.requests.length;
    await createTask();
    await sleep(QUIET_MS);
    assert.equal(receiver.requests.length, before);
  });

  it("sends a test event, shows a delivery's attempts and redelivers it", async () => {
    const before = receiver.requests.length;
    // The ping's first attempt fails; its retry a second later succeeds.
    receiver.respond((_r, i) => (i === before ? 503 : 200));
    await card()
      .getByRole('button', { name: /Send test event/ })
      .click();
    await page.getByText(/Test event sent \(del_/).waitFor();
    const got = await receiver.waitFor(before + 2);
    assert.deepEqual(
      got.slice(before).map((r) => r.body.event),
      ['webhook.ping', 'webhook.ping'],
    );
    const log = (await server.request('GET', '/api/webhooks/deliveries?limit=1')).body.data.deliveries;
    const id = log[0].id;
    assert.equal(log[0].event, 'webhook.ping');
    const row = page.locator(`tr[data-delivery-id="${id}"]`);
    await row.getByText('success').waitFor();
    await row.getByRole('button', { name: /Details/ }).click();
    const dialog = page.getByRole('dialog', { name: `Delivery ${id}` });
    await dialog.waitFor();
    const attempts = dialog.getByRole('region', { name: 'Attempts' }).locator('tbody tr');
    await attempts.nth(1).waitFor();
    assert.equal(await attempts.count(), 2);
    await attempts.nth(0).getByRole('cell', { name: '503', exact: true }).waitFor();
    await attempts.nth(1).getByRole('cell', { name: '200', exact: true }).waitFor();
    await dialog.getByText('"webhook.ping"').waitFor();

    // The redelivery's receiver answers a second late: its attempt is recorded long after the
    // Redeliver request returned, and the open dialog shows it when the server says so.
    receiver.respond(() => ({ status: 200, delayMs: 1000 }));
    await dialog.getByRole('button', { name: 'Redeliver' }).click();
    const [again] = (await receiver.waitFor(before + 3)).slice(before + 2);
    assert.equal(again?.raw.toString(), got[before]?.raw.toString(), 'the same payload');
    await attempts.nth(2).waitFor();
    assert.equal(await attempts.count(), 3);
    await attempts.nth(2).getByRole('cell', { name: '200', exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    receiver.respond(() => 200);
  });

  it('deletes only after the confirmation', async () => {
    await card()
      .getByRole('button', { name: /Delete/ })
      .click();
    let confirm = page.getByRole('dialog', { name: 'Delete webhook' });
    await confirm.getByText('Are you sure you want to delete this webhook?').waitFor();
    await confirm.getByText(`URL: ${receiver.url}`).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    assert.equal((await apiHooks()).length, 1);

    await card()
      .getByRole('button', { name: /Delete/ })
      .click();
    confirm = page.getByRole('dialog', { name: 'Delete webhook' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Webhook deleted').waitFor();
    await card().waitFor({ state: 'detached' });
    assert.equal((await apiHooks()).length, 0);
  });

  it('switching the HTTP API off answers 503 and stops deliveries; on brings both back', async () => {
    await server.request('POST', '/api/webhooks', { url: receiver.url, events: ['task.created'] });
    const seen = receiver.requests.length;
    const toggle = page.getByRole('switch', { name: 'Enable HTTP API' });
    await page.reload();
    await toggle.uncheck();
    await page.getByText('HTTP API disabled', { exact: true }).waitFor();
    const off = await server.request('GET', '/api/health');
    assert.equal(off.status, 503);
    assert.equal(off.body.error, 'HTTP API is disabled');
    // A note written by another program still becomes a task, but no webhook is delivered.
    await writeFile(
      path.join(server.vault, 'Written while off.md'),
      '---\ntitle: Written while off\nstatus: open\ntags:\n  - task\n---\n',
    );
    await sleep(QUIET_MS);
    assert.equal(receiver.requests.length, seen);

    await toggle.check();
    await page.getByText('HTTP API enabled', { exact: true }).waitFor();
    assert.equal((await server.request('GET', '/api/health')).status, 200);
    // The same kind of edit is delivered once the API is on: the quiet period above was real.
    await writeFile(
      path.join(server.vault, 'Written while on.md'),
      '---\ntitle: Written while on\nstatus: open\ntags:\n  - task\n---\n',
    );
    const received = await receiver.waitFor(seen + 1);
    assert.equal(received.length, seen + 1);
    assert.equal(received[seen]!.body.data.task.title, 'Written while on');
  });

  it('works from the keyboard, labels every control and fits 360 px', async () => {
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, button, select, textarea')]
        .filter((el) => {
          const labels = (el as HTMLInputElement).labels;
          return !(labels && labels.length > 0) && !el.getAttribute('aria-label') && !el.textContent?.trim();
        })
        .map((el) => el.outerHTML),
    );
    assert.deepEqual(unlabelled, []);

    await page.getByRole('button', { name: 'Add webhook' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    await dialog.waitFor();
    // Focus moved into the dialog, with a visible focus ring.
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { inDialog: !!el.closest('dialog'), outline: getComputedStyle(el).outlineStyle };
    });
    assert.equal(ring.inDialog, true);
    assert.notEqual(ring.outline, 'none');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'Add webhook',
      'focus returns to the opener',
    );

    await page.setViewportSize({ width: 360, height: 740 });
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('adds, refreshes, edits and removes ICS subscriptions, showing lastFetched, lastError and lastWarning', async () => {
    const section = page.locator('#calendars');
    const addSubscription = async (fill: (dialog: ReturnType<Page['getByRole']>) => Promise<void>) => {
      await section.getByRole('button', { name: 'Add subscription' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add subscription' });
      await fill(dialog);
      await dialog.getByRole('button', { name: 'Add subscription' }).click();
      await dialog.waitFor({ state: 'detached' });
    };

    await section.getByRole('button', { name: 'Add subscription' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add subscription' });
    await dialog.getByRole('button', { name: 'Add subscription' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByText('Feed URL is required').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await addSubscription(async (d) => {
      await d.getByLabel('Name').fill('Holidays');
      await d.getByRole('radio', { name: '.ics file in the vault' }).check();
      await d.getByLabel('File path').fill('Calendars/holidays.ics');
    });
    const holidays = section.locator('article', { hasText: 'Holidays' });
    await holidays.getByRole('button', { name: /Refresh/ }).click();
    // Its second event has a date that is no date: left out, and said so.
    const leftOut = '1 event could not be read and was left out: event "Boxing Day"';
    await page.getByText(`Refreshed Holidays; ${leftOut}`).waitFor();
    await holidays.getByText('just now').waitFor();
    await holidays.getByRole('definition').filter({ hasText: leftOut }).waitFor();

    await addSubscription(async (d) => {
      await d.getByLabel('Name').fill('Unreachable feed');
      await d.getByLabel('Feed URL').fill('http://127.0.0.1:9/feed.ics');
    });
    const unreachable = section.locator('article', { hasText: 'Unreachable feed' });
    await unreachable.getByRole('button', { name: /Refresh/ }).click();
    await page.getByText(/Refresh of Unreachable feed failed/).waitFor();
    await unreachable.locator('dd.error').waitFor();
    await unreachable.getByText('never').waitFor();

    await holidays.getByRole('button', { name: /Edit/ }).click();
    dialog = page.getByRole('dialog', { name: 'Edit subscription' });
    assert.equal(await dialog.getByLabel('File path').inputValue(), 'Calendars/holidays.ics');
    await dialog.getByLabel('Name').fill('Public holidays');
    await dialog.getByLabel('Refresh every (minutes)').fill('30');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await section.locator('article', { hasText: 'Public holidays' }).getByText('Every 30 min').waitFor();

    await unreachable.getByRole('button', { name: /Remove/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove subscription' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await unreachable.waitFor({ state: 'detached' });
    const api = await server.request('GET', '/settings-api/calendars/subscriptions');
    assert.deepEqual(
      api.body.data.subscriptions.map((s: any) => [s.name, s.filePath, s.refreshInterval]),
      [['Public holidays', 'Calendars/holidays.ics', 30]],
    );
  });

  it('with two webhooks saved, renders the page for the README screenshot', async () => {
    await server.request('POST', '/api/webhooks', {
      url: 'https://hooks.example.com/taskdown',
      events: ['task.completed', 'task.updated', 'time.stopped'],
      transformFile: 'templates/slack.json',
      corsHeaders: false,
    });
    await page.reload();
    await page.locator('article.webhook').nth(1).waitFor();
    const shot = await page.screenshot({ fullPage: true });
    assert.ok(shot.length > 10_000);
    if (process.env.TASKDOWN_UPDATE_SCREENSHOTS === '1') {
      await mkdir(path.join(ROOT, 'docs'), { recursive: true });
      await writeFile(path.join(ROOT, 'docs/settings.png'), shot);
    }
    assert.deepEqual(browser.blocked, [], 'the page requested nothing from another origin');
  });

  it('asks for the token once one is set, and keeps it only in the tab session', async () => {
    const token = 'browser-token-123456';
    await page.getByLabel('New token').fill(token);
    await page.getByRole('button', { name: 'Set token' }).click();
    await page.getByText('A token is set.').waitFor();
    assert.equal((await server.request('GET', '/api/health')).status, 401);
    // This tab keeps working with the token it just set.
    await page.reload();
    await page.getByRole('heading', { name: 'HTTP API' }).waitFor();
    const storage = await page.evaluate(() => ({
      session: Object.values(sessionStorage),
      local: Object.keys(localStorage).length,
      cookies: document.cookie,
    }));
    assert.deepEqual(storage, { session: [token], local: 0, cookies: '' });

    // A new tab has an empty session: it asks.
    const other = await browser.context.newPage();
    await other.goto(server.url);
    const prompt = other.getByLabel('API token');
    await prompt.fill('wrong-token-000');
    await other.getByRole('button', { name: 'Unlock' }).click();
    await other.getByText('That token was not accepted').waitFor();
    await prompt.fill(token);
    await other.getByRole('button', { name: 'Unlock' }).click();
    await other.getByRole('heading', { name: 'Webhooks' }).waitFor();
    // Listening before the click: the answer can arrive before click() returns. The answer may
    // also be to the refresh the activity stream asks for when it connects, whose request went
    // out before any listener here: the request is read from the answer, not from events.
    const answered = other.waitForResponse((res) => res.url().endsWith('/settings-api/webhooks/deliveries'));
    await other.getByRole('button', { name: 'Refresh now' }).click();
    const response = await answered;
    assert.equal(response.status(), 200);
    assert.equal(await response.request().headerValue('authorization'), `Bearer ${token}`);
    await other.close();
  });
});

describe('settings page with a token from the command line', () => {
  let server: TestServer;
  let browser: TestBrowser;
  const token = 'command-line-token-42';
  before(async () => {
    await ensureWebBuild();
    server = await startTestServer({ token });
    browser = await launchBrowser({ allowOrigin: server.url });
  });
  after(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  it('asks for the token and shows that the command line set it, with editing disabled', async () => {
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(server.url);
    await page.getByLabel('API token').waitFor();
    // The page learns it needs a token without a request the browser logs as failed (a 401).
    assert.deepEqual(errors, []);
    await page.getByLabel('API token').fill(token);
    await page.keyboard.press('Enter');
    await page.getByText("A token is set by the server's command line").waitFor();
    assert.equal(await page.getByRole('button', { name: 'Set token' }).isDisabled(), true);
    assert.equal(await page.getByRole('button', { name: 'Generate new token' }).isDisabled(), true);
    assert.equal(await page.getByLabel('New token').isDisabled(), true);
  });
});
