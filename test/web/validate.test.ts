/** The settings page's form checks and date formatting (pure functions, no browser). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dateTime, timeAgo } from '../../src/web/format.js';
import { checkSubscription, checkToken, checkWebhook, hasErrors, isHttpUrl } from '../../src/web/validate.js';

const hook = {
  url: 'https://example.com/hook',
  events: ['task.created'],
  transformFile: '',
  corsHeaders: true,
};
const sub = {
  name: 'Team',
  type: 'remote' as const,
  url: 'https://example.com/team.ics',
  filePath: '',
  color: '#336699',
  enabled: true,
  refreshInterval: '60',
};

describe('checkWebhook', () => {
  it('accepts a complete draft', () => {
    assert.deepEqual(checkWebhook(hook), {});
    assert.equal(hasErrors(checkWebhook(hook)), false);
  });

  it("uses the reference UI's messages for a missing URL and no events", () => {
    assert.deepEqual(checkWebhook({ ...hook, url: '   ', events: [] }), {
      url: 'Webhook URL is required',
      events: 'Please select at least one event',
    });
  });

  it('wants an absolute http(s) URL and a .json transform', () => {
    for (const url of ['example.com/hook', 'ftp://example.com', 'javascript:alert(1)']) {
      assert.match(checkWebhook({ ...hook, url }).url ?? '', /absolute http/, url);
    }
    assert.match(checkWebhook({ ...hook, transformFile: 'transform.js' }).transformFile ?? '', /\.json/);
    assert.deepEqual(checkWebhook({ ...hook, transformFile: ' templates/a.JSON ' }), {});
  });

  it('isHttpUrl', () => {
    assert.equal(isHttpUrl('http://127.0.0.1:8080/x'), true);
    assert.equal(isHttpUrl('webcal://x'), false);
  });
});

describe('checkToken', () => {
  it('accepts what the server accepts', () => {
    assert.equal(checkToken('abcdefgh'), undefined);
    assert.equal(checkToken('x'.repeat(256)), undefined);
    for (const bad of ['', 'short', 'with space 123', 'x'.repeat(257), 'ünïcode-token']) {
      assert.match(checkToken(bad) ?? '', /8 to 256 visible characters/, bad);
    }
  });
});

describe('checkSubscription', () => {
  it('accepts remote feeds (http, https, webcal) and vault .ics files', () => {
    assert.deepEqual(checkSubscription(sub), {});
    assert.deepEqual(checkSubscription({ ...sub, url: 'webcal://example.com/a.ics' }), {});
    assert.deepEqual(checkSubscription({ ...sub, type: 'local', url: '', filePath: 'Calendars/a.ics' }), {});
  });

  it('names every field to fix', () => {
    assert.deepEqual(
      Object.keys(checkSubscription({ ...sub, name: ' ', url: '', refreshInterval: '0' })).sort(),
      ['name', 'refreshInterval', 'url'],
    );
    assert.ok(checkSubscription({ ...sub, url: 'ftp://x' }).url);
    assert.ok(checkSubscription({ ...sub, type: 'local', filePath: 'a.txt' }).filePath);
    assert.ok(checkSubscription({ ...sub, refreshInterval: '1.5' }).refreshInterval);
  });
});

describe('timeAgo and dateTime', () => {
  const now = Date.parse('2026-06-01T12:00:00.000Z');
  it('speaks in the largest sensible unit', () => {
    assert.equal(timeAgo(undefined, now), 'never');
    assert.equal(timeAgo('2026-06-01T11:59:30.000Z', now), 'just now');
    assert.equal(timeAgo('2026-06-01T11:59:00.000Z', now), '1 minute ago');
    assert.equal(timeAgo('2026-06-01T11:15:00.000Z', now), '45 minutes ago');
    assert.equal(timeAgo('2026-06-01T09:00:00.000Z', now), '3 hours ago');
    assert.equal(timeAgo('2026-05-30T12:00:00.000Z', now), '2 days ago');
    assert.equal(timeAgo('not a date', now), 'not a date');
  });
  it('dateTime tolerates missing and bad input', () => {
    assert.equal(dateTime(undefined), '—');
    assert.equal(dateTime('garbage'), 'garbage');
    assert.notEqual(dateTime('2026-06-01T12:00:00.000Z'), '—');
  });
});
