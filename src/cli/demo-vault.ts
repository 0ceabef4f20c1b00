/**
 * The demo vault that `npm start` serves: a few tasks in the TaskNotes on-disk format (default
 * settings: tag identification, title in the filename, TaskNotes/Tasks folder).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

function isoDay(offsetDays: number): string {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export async function createDemoVault(vault: string): Promise<void> {
  const folder = path.join(vault, 'TaskNotes', 'Tasks');
  await mkdir(folder, { recursive: true });
  const created = new Date().toISOString();
  const notes: Record<string, string> = {
    'Review pull requests.md': `---
status: open
priority: high
due: ${isoDay(1)}
scheduled: ${isoDay(0)}
contexts:
  - "@computer"
projects:
  - "[[Website]]"
timeEstimate: 45
dateCreated: ${created}
dateModified: ${created}
reminders:
  - id: rem_demo
    type: relative
    relatedTo: due
    offset: -PT1H
tags:
  - task
  - work
---

Check the open pull requests and leave reviews.
`,
    'Water the plants.md': `---
status: open
priority: normal
scheduled: ${isoDay(0)}
recurrence: DTSTART:${isoDay(0).replace(/-/g, '')};FREQ=WEEKLY;BYDAY=MO,TH
dateCreated: ${created}
dateModified: ${created}
tags:
  - task
  - home
---
`,
    'Plan the quarter.md': `---
status: in-progress
priority: normal
due: ${isoDay(7)}
projects:
  - "[[Q1 Planning]]"
blockedBy:
  - uid: "[[Review pull requests]]"
    reltype: FINISHTOSTART
dateCreated: ${created}
dateModified: ${created}
tags:
  - task
---

- [ ] Collect goals
- [ ] Draft the roadmap
`,
    'Renew passport.md': `---
status: done
priority: low
completedDate: ${isoDay(-2)}
dateCreated: ${created}
dateModified: ${created}
tags:
  - task
  - personal
---
`,
  };
  for (const [name, text] of Object.entries(notes)) {
    await writeFile(path.join(folder, name), text, { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  }
  await writeFile(
    path.join(vault, 'Welcome.md'),
    '# Demo vault\n\nTask notes live in TaskNotes/Tasks. This note has no task tag, so it is not a task.\n',
    { flag: 'wx' },
  ).catch(() => {});
}
