/**
 * What a failed read of a feed says in `lastError`: a host that stops sending in the middle of the
 * body, and a vault "file" that is a named pipe. A real HTTP server and a real FIFO.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fetchIcsSource, icsText } from '../../../src/core/calendars/ics-fetcher.js';
import type { IcsSubscription } from '../../../src/core/calendars/types.js';
import { createHttpClient } from '../../../src/core/net/http-client.js';
import { tempDir } from '../../helpers/temp.js';

const subscription = (where: Partial<IcsSubscription>): IcsSubscription => ({
  id: 'ics_test',
  name: 'Test',
  color: '#6495ED',
  enabled: true,
  refreshInterval: 60,
  ...where,
});

describe('fetchIcsSource failures', () => {
  let vault: { dir: string; cleanup: () => Promise<void> };
  let server: http.Server;
  const client = createHttpClient();
  before(async () => {
    vault = await tempDir('taskdown-fetch-vault-');
    // Answers at once, sends the start of a calendar, then nothing more (`/whole.ics`: all of it).
    server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      if (req.url === '/whole.ics') {
        res.end('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
        return;
      }
      res.flushHeaders();
      res.write('BEGIN:VCALENDAR\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    server.closeAllConnections();
    server.close();
    await client.close();
    await vault.cleanup();
  });

  it('says the feed timed out while it was being received, not that an operation was aborted', async () => {
    const { port } = server.address() as AddressInfo;
    const options = { vault: { root: vault.dir, dataDir: path.join(vault.dir, '.data') }, http: client };
    // A first fetch loads and compiles the client's code: on a loaded machine that alone took
    // over 1.5 s, and the time ran out before the answer's start.
    await fetchIcsSource(subscription({ url: `http://127.0.0.1:${port}/whole.ics` }), {
      ...options,
      timeoutMs: 30_000,
    });
    await assert.rejects(
      // Long enough for the answer's start to arrive on a loaded machine: the time runs out while
      // the body is awaited.
      fetchIcsSource(subscription({ url: `http://127.0.0.1:${port}/feed.ics` }), {
        ...options,
        timeoutMs: 1_500,
      }),
      { message: 'Failed to fetch calendar: timed out after 1.5 s while receiving the feed' },
    );
  });

  it('says a named pipe is not a regular file, without waiting for a writer', async () => {
    execFileSync('mkfifo', [path.join(vault.dir, 'pipe.ics')]);
    await assert.rejects(
      fetchIcsSource(subscription({ filePath: 'pipe.ics' }), {
        vault: { root: vault.dir, dataDir: path.join(vault.dir, '.data') },
        http: client,
        timeoutMs: 300,
      }),
      { message: 'Invalid ICS file: it is not a regular file (a named pipe, a socket or a device)' },
    );
  });
});

describe('a feed text from its bytes', () => {
  // "Café München", folded inside the two bytes of its é (C3 A9), as 75-byte folding can.
  const split = Buffer.concat([
    Buffer.from('SUMMARY:Caf\xc3', 'latin1'),
    Buffer.from('\r\n '),
    Buffer.from('\xa9 M\xc3\xbcnchen\r\n', 'latin1'),
  ]);

  it('unfolds the lines before decoding, so a character split by a fold stays whole', () => {
    assert.equal(icsText(split), 'SUMMARY:Café München\r\n');
    assert.equal(icsText(Buffer.from('A:one\n two\r\n\tthree\r\nB:x\r\n')), 'A:onetwothree\r\nB:x\r\n');
    assert.equal(icsText(Buffer.from('\ufeffBEGIN:VCALENDAR\r\n')), 'BEGIN:VCALENDAR\r\n');
  });

  it('reads a vault file that way', async () => {
    const vault = await tempDir('taskdown-fetch-vault-');
    try {
      const calendar = Buffer.concat([
        Buffer.from('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260101T090000Z\r\n'),
        split,
        Buffer.from('END:VEVENT\r\nEND:VCALENDAR\r\n'),
      ]);
      await writeFile(path.join(vault.dir, 'split.ics'), calendar);
      const source = await fetchIcsSource(subscription({ filePath: 'split.ics' }), {
        vault: { root: vault.dir, dataDir: path.join(vault.dir, '.data') },
        http: createHttpClient(),
        timeoutMs: 1_000,
      });
      assert.match(source.text, /^SUMMARY:Café München\r$/m);
    } finally {
      await vault.cleanup();
    }
  });
});
