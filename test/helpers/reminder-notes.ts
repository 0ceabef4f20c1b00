/** Task notes with reminders, as another program would write them into a vault (reminder tests). */

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A task note whose one reminder `id` is absolute, at the instant `at` (epoch ms). */
export const absoluteReminderNote = (title: string, id: string, at: number): string =>
  `---\ntitle: ${title}\nstatus: open\npriority: normal\ntags:\n  - task\n` +
  `reminders:\n  - id: ${id}\n    type: absolute\n    absoluteTime: "${iso(at)}"\n---\n`;
