/**
 * `GET /api/filter-options` (as in the TaskNotes plugin): the configured statuses and priorities,
 * the values found in tasks, and one entry per user field with the operators it supports.
 * Computed from the task list on each call: over 10,000 tasks this is a few milliseconds, so the
 * reference's 5-minute cache (and its invalidation) would add staleness for nothing.
 */
import type { TaskInfo } from '../tasks/task-info.js';
import { USER_FIELD_OPERATORS, USER_PREFIX } from './properties.js';
import type { Operator, QuerySettings, UserFieldType } from './types.js';

export interface UserPropertyOption {
  id: string;
  label: string;
  category: 'boolean' | 'numeric' | 'date' | 'text';
  supportedOperators: Operator[];
  valueInputType: 'none' | 'number' | 'date' | 'text';
}

export interface FilterOptions<S, P> {
  statuses: S[];
  priorities: P[];
  contexts: string[];
  projects: string[];
  tags: string[];
  folders: string[];
  userProperties: UserPropertyOption[];
}

const CATEGORY: Record<UserFieldType, Pick<UserPropertyOption, 'category' | 'valueInputType'>> = {
  boolean: { category: 'boolean', valueInputType: 'none' },
  number: { category: 'numeric', valueInputType: 'number' },
  date: { category: 'date', valueInputType: 'date' },
  list: { category: 'text', valueInputType: 'text' },
  text: { category: 'text', valueInputType: 'text' },
};

export const ROOT_FOLDER = '(Root)';

function distinct(values: Iterable<string>): string[] {
  const set = new Set<string>();
  for (const v of values) {
    const t = v.trim();
    if (t !== '') set.add(t);
  }
  // The default JS sort (UTF-16 code units), as the reference does.
  return [...set].sort();
}

/**
 * `statuses` and `priorities` are returned as given, so the caller passes the full configured
 * objects (colors, icons, flags) and gets them back unchanged.
 */
export function filterOptions<S, P>(
  tasks: readonly TaskInfo[],
  settings: QuerySettings & { statuses: readonly S[]; priorities: readonly P[] },
): FilterOptions<S, P> {
  return {
    statuses: [...settings.statuses],
    priorities: [...settings.priorities],
    contexts: distinct(tasks.flatMap((t) => t.contexts)),
    projects: distinct(tasks.flatMap((t) => t.projects)),
    tags: distinct(tasks.flatMap((t) => t.tags)),
    folders: distinct(
      tasks.map((t) => {
        const at = t.path.lastIndexOf('/');
        return at < 0 ? ROOT_FOLDER : t.path.slice(0, at);
      }),
    ),
    userProperties: settings.userFields
      .filter((f) => f.key && f.displayName)
      .map((f) => ({
        id: `${USER_PREFIX}${f.id || f.key}`,
        label: f.displayName as string,
        supportedOperators: [...USER_FIELD_OPERATORS[f.type]],
        ...CATEGORY[f.type],
      })),
  };
}
