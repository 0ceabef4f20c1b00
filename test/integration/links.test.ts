/**
 * Links through the HTTP API: dependencies resolve with the spec resolver (an ambiguous or missing
 * target blocks, never a guessed one), and references follow a renamed task.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeId, startTestServer, type TestServer } from '../helpers/server-process.js';

const note = (fields: string): string => `---\n${fields}\ntags:\n  - task\n---\n`;

describe('links between tasks', () => {
  let server: TestServer;
  const get = async (id: string) => (await server.request('GET', `/api/tasks/${encodeId(id)}`)).body.data;
  before(async () => {
    server = await startTestServer({
      files: {
        'A/Shared.md': note('status: open'),
        'B/Shared.md': note('status: done'),
        'A/ByName.md': note('status: open\nblockedBy:\n  - uid: "[[Shared]]"\n    reltype: FINISHTOSTART'),
        'A/ByPath.md': note('status: open\nblockedBy:\n  - uid: "[[B/Shared]]"\n    reltype: FINISHTOSTART'),
        'A/Missing.md': note('status: open\nblockedBy:\n  - uid: "[[Nothing here]]"'),
        'A/Relative.md': note('status: open\nblockedBy:\n  - uid: "[done](../B/Shared.md)"'),
        'Design.md': note('status: open'),
        'Target Note.md': note('status: open'),
        'Escaped.md': note('status: open\nprojects:\n  - "[T](Target%20Note.md)"'),
        'Work/Implement.md': note(
          'status: open\nprojects:\n  - "[[Design|the design]]"\n  - "Other project"\n' +
            'blockedBy:\n  - uid: "[[Design]]"\n    reltype: STARTTOSTART\n    gap: P1D',
        ),
      },
    });
  });
  after(() => server.cleanup());

  it('a name two tasks share resolves to neither: the dependency blocks and blocks nothing', async () => {
    const byName = await get('A/ByName.md');
    assert.equal(byName.isBlocked, true);
    assert.equal((await get('A/Shared.md')).blocking, undefined);
  });

  it('a path-qualified or relative link resolves to its task', async () => {
    assert.equal((await get('A/ByPath.md')).isBlocked, false, 'B/Shared is done');
    assert.equal((await get('A/Relative.md')).isBlocked, false);
  });

  it('a dependency on a task that does not exist blocks', async () => {
    assert.equal((await get('A/Missing.md')).isBlocked, true);
  });

  it('DELETE with checkBacklinks is refused while other tasks link to it, unless forced', async () => {
    const url = `/api/tasks/${encodeId('Design.md')}`;
    const refused = await server.request('DELETE', `${url}?checkBacklinks=true`);
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.error, /Work\/Implement\.md still link/);
    assert.equal((await get('Design.md')).id, 'Design.md');
    const unlinked = await server.request(
      'DELETE',
      `/api/tasks/${encodeId('A/Missing.md')}?checkBacklinks=true`,
    );
    assert.equal(unlinked.status, 200, unlinked.text);
  });

  it('renaming a task rewrites the links to it in other tasks', async () => {
    const implement = await get('Work/Implement.md');
    assert.equal(implement.isBlocked, true);
    assert.deepEqual((await get('Design.md')).blocking, ['Work/Implement.md']);

    const renamed = await server.request('PUT', `/api/tasks/${encodeId('Design.md')}`, {
      title: 'API design',
    });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.data.id, 'API design.md');
    assert.deepEqual(renamed.body.data.blocking, ['Work/Implement.md']);

    const text = await readFile(path.join(server.vault, 'Work/Implement.md'), 'utf8');
    assert.match(text, /- "\[\[API design\|the design\]\]"/);
    assert.match(text, /- Other project/);
    assert.match(text, /uid: "\[\[API design\]\]"\n\s+reltype: STARTTOSTART\n\s+gap: P1D/);
    const after = await get('Work/Implement.md');
    assert.equal(after.isBlocked, true);
    assert.deepEqual(after.blockedBy, [{ uid: 'API design', reltype: 'STARTTOSTART', gap: 'P1D' }]);

    await server.request('PUT', `/api/tasks/${encodeId('API design.md')}`, { status: 'done' });
    assert.equal((await get('Work/Implement.md')).isBlocked, false);
  });

  it('a markdown link written with percent-escapes stays one, escaped, when its task is renamed', async () => {
    const renamed = await server.request('PUT', `/api/tasks/${encodeId('Target Note.md')}`, {
      title: 'New target',
    });
    assert.equal(renamed.body.data.id, 'New target.md');
    assert.deepEqual((await get('Escaped.md')).projects, ['[T](New%20target.md)']);
  });
});
