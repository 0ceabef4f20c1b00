/**
 * `{{variable}}` expansion in task templates (TaskNotes body templates; tasknotes-spec templating
 * profile). The variable set is the task's own values plus the creation date and time; what
 * happens to an unknown variable is the configured `unknown_variable_policy`.
 */
import { invalid } from '../errors.js';

const TOKEN = /\{\{([^{}]+)\}\}/g;

export type UnknownVariablePolicy = 'preserve' | 'empty' | 'error';

/** Task values a template can use; lists may be given as arrays or as comma-separated text. */
export interface TemplateTask {
  title?: string;
  status?: string;
  priority?: string;
  dueDate?: string;
  scheduledDate?: string;
  details?: string;
  contexts?: readonly string[] | string;
  tags?: readonly string[] | string;
  timeEstimate?: number | string;
  parentNote?: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');

function asList(value: readonly string[] | string | undefined): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? value.split(',') : [...value];
  return list.map((v) => v.trim()).filter((v) => v !== '');
}

/** The standard variables for a task created at `now` (local time). */
export function taskTemplateVariables(task: TemplateTask, now: Date): Record<string, string> {
  const tags = asList(task.tags);
  return {
    title: task.title ?? '',
    status: task.status ?? '',
    priority: task.priority ?? '',
    dueDate: task.dueDate ?? '',
    scheduledDate: task.scheduledDate ?? '',
    details: task.details ?? '',
    contexts: asList(task.contexts).join(', '),
    tags: tags.join(', '),
    hashtags: tags.map((t) => (t.startsWith('#') ? t : `#${t}`)).join(' '),
    timeEstimate: task.timeEstimate === undefined ? '' : String(task.timeEstimate),
    parentNote: task.parentNote ?? '',
    date: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`,
    time: `${pad(now.getHours())}:${pad(now.getMinutes())}`,
    year: String(now.getFullYear()),
    month: pad(now.getMonth() + 1),
    day: pad(now.getDate()),
  };
}

/** The variable names a template uses, in order of appearance. */
export function templateTokens(template: string): string[] {
  return [...template.matchAll(TOKEN)].map((m) => (m[1] as string).trim()).filter((t) => t !== '');
}

/** Replaces every `{{name}}`; unknown names follow `policy`. */
export function expandTemplate(
  template: string,
  variables: Readonly<Record<string, string>>,
  policy: UnknownVariablePolicy = 'preserve',
): string {
  return template.replace(TOKEN, (whole, rawName: string) => {
    const name = rawName.trim();
    if (Object.hasOwn(variables, name)) return variables[name] as string;
    if (policy === 'empty') return '';
    if (policy === 'error') throw invalid(`template_unknown_variable: {{${name}}}`);
    return whole;
  });
}
