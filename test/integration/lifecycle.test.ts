/** README "Security": the demo vault behind `npm start`, and shutdown that lets in-flight writes finish. */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startTestServer } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp.js';

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(abs)));
    else out.push(abs);
  }
  return out;
}

describe('server lifecycle', () => {
  it('creates and serves the demo vault with --create-demo', async () => {
    const t = await tempDir();
    const vault = path.join(t.dir, 'vault');
    const server = await startTestServer({ vault, args: ['--create-demo'] });
    try {
      const res = await server.request('GET', '/api/tasks');
      assert.equal(res.status, 200);
      const titles = res.body.data.tasks.map((task: { title: string }) => task.title).sort();
      assert.deepEqual(titles, [
        'Plan the quarter',
        'Renew passport',
        'Review pull requests',
        'Water the plants',
      ]);
      const blocked = res.body.data.tasks.find(
        (task: { title: string }) => task.title === 'Plan the quarter',
      );
      assert.equal(blocked.isBlocked, true, 'the demo dependency resolves');
    } finally {
      await server.cleanup();
      await t.cleanup();
    }
  });

  it('finishes in-flight writes on SIGTERM: every acknowledged task is on disk, no temp files', async () => {
    const server = await startTestServer();
    try {
      const writes = Array.from({ length: 30 }, (_, i) =>
        server.request('POST', '/api/tasks', { title: `Shutdown task ${i}`, details: 'x'.repeat(2000) }).then(
          (res) => res,
          () => null, // connections refused after the server stopped accepting
        ),
      );
      // Ask it to stop as soon as the first write is acknowledged, with the others still in flight.
      await writes[0];
      const stopAsked = Date.now();
      const exit = server.stop('SIGTERM');
      const results = await Promise.all(writes);
      assert.equal(await exit, 0);
      // Keep-alive connections must not hold the exit until their 72 s idle timeout.
      assert.ok(Date.now() - stopAsked < 15_000, `shutdown took ${Date.now() - stopAsked} ms`);
      const acknowledged = results.filter((r) => r?.status === 201);
      assert.ok(acknowledged.length > 0, 'some writes were acknowledged before shutdown');
      const files = await listFiles(server.vault);
      assert.deepEqual(
        files.filter((f) => f.endsWith('.tmp')),
        [],
        'no temp files left behind',
      );
      for (const res of acknowledged) {
        const text = await readFile(path.join(server.vault, res!.body.data.path), 'utf8');
        assert.match(text, /^---\n[\s\S]*\n---\n/, `${res!.body.data.path} is a complete note`);
        assert.ok(text.includes('x'.repeat(2000)), 'the body was written completely');
      }
    } finally {
      await server.cleanup();
    }
  });
});
