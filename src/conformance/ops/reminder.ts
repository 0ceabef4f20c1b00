/** reminder.* — reminder entries (spec §10.3) over src/core/reminders. */
import { addReminder, removeReminder, updateReminder } from '../policy/reminder-edit.js';
import { reminderEntryIssue, reminderSetIssue } from '../../core/reminders/entry.js';
import { attempt, errResult, okResult } from '../envelope.js';
import { record, records, str } from '../input.js';
import type { OpTable } from '../types.js';

export const reminderOps: OpTable = {
  'reminder.validate_entry': (input) => {
    const issue = reminderEntryIssue(record(input).entry);
    return issue ? errResult(issue) : okResult({ value: 'valid' });
  },
  'reminder.validate_set': (input) => {
    const { entries, frontmatter } = record(input);
    const issue = reminderSetIssue(Array.isArray(entries) ? entries : [], record(frontmatter));
    return issue ? errResult(issue) : okResult({ value: 'valid_set' });
  },
  'reminder.add': (input) => {
    const { current, entry } = record(input);
    return attempt(() => ({ value: addReminder(records(current), record(entry)) }));
  },
  'reminder.update': (input) => {
    const { current, id, patch } = record(input);
    return attempt(() => ({ value: updateReminder(records(current), str(id), record(patch)) }));
  },
  'reminder.remove': (input) => {
    const { current, id } = record(input);
    return attempt(() => ({ value: removeReminder(records(current), str(id)) }));
  },
};
