/**
 * Turns parser output into the creation data that POST /api/tasks accepts (as in the
 * TaskNotes plugin): defaults for status and priority, `date[Thh:mm]` for due/scheduled,
 * normalised tags, and user fields under their frontmatter keys.
 */
import { normalizeTag } from '../tasks/field-mapping.js';
import { localIsoTimestamp } from '../tasks/local-time.js';
import type { TaskCreateInput } from '../tasks/task-service.js';
import type { NlpSettings } from './nlp-settings.js';
import type { ParsedTask } from './task-parser.js';

const withTime = (date: string, time: string | undefined): string => (time ? `${date}T${time}` : date);

export function buildTaskData(parsed: ParsedTask, settings: NlpSettings, now: number): TaskCreateInput {
  const stamp = localIsoTimestamp(now);
  const data: TaskCreateInput = {
    title: parsed.title.trim(),
    status: parsed.status || settings.defaultTaskStatus,
    priority: parsed.priority || settings.defaultTaskPriority,
    dateCreated: stamp,
    dateModified: stamp,
  };
  if (parsed.dueDate) data.due = withTime(parsed.dueDate, parsed.dueTime);
  if (parsed.scheduledDate) data.scheduled = withTime(parsed.scheduledDate, parsed.scheduledTime);
  if (parsed.contexts.length > 0) data.contexts = [...parsed.contexts];
  if (parsed.projects.length > 0) data.projects = [...parsed.projects];
  const tags = parsed.tags.map(normalizeTag).filter((t) => t !== '');
  if (tags.length > 0) data.tags = tags;
  if (parsed.details) data.details = parsed.details;
  if (parsed.recurrence) data.recurrence = parsed.recurrence;
  if (parsed.estimate !== undefined && parsed.estimate > 0) data.timeEstimate = parsed.estimate;

  const custom: Record<string, string | boolean> = {};
  for (const [id, value] of Object.entries(parsed.userFields ?? {})) {
    // Fields removed from settings since parsing are dropped rather than written under an id.
    const field = settings.userFields.find((f) => f.id === id);
    if (!field) continue;
    custom[field.key] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (Object.keys(custom).length > 0) data.customFrontmatter = custom;
  return data;
}
