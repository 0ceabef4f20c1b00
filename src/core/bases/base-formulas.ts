/**
 * The shared `formulas:` block of the default task templates: date distances, booleans, time
 * tracking, grouping buckets, combined due/scheduled values, sorting scores and display text.
 * Every property goes through the field mapping; statuses and priorities come from settings.
 */
import type { BasesSettings } from './bases-settings.js';
import {
  completedValues,
  dayOf,
  field,
  literal,
  TODAY,
  TOMORROW,
  WEEK_END,
  YESTERDAY,
} from './base-expressions.js';

const DAY_MS = 86_400_000;

/** Nested `if(prop==v1,r1,if(prop==v2,r2,…fallback))`. */
function lookup(prop: string, pairs: Array<[string, string]>, fallback: string): string {
  return pairs.reduceRight(
    (inner, [value, result]) => `if(${prop}==${literal(value)},${result},${inner})`,
    fallback,
  );
}

export function taskFormulas(s: BasesSettings): Record<string, string> {
  const due = field(s, 'due');
  const scheduled = field(s, 'scheduled');
  const status = field(s, 'status');
  const priority = field(s, 'priority');
  const estimate = field(s, 'timeEstimate');
  const entries = field(s, 'timeEntries');
  const recurrence = field(s, 'recurrence');
  const projects = field(s, 'projects');
  const contexts = field(s, 'contexts');

  const dueSet = `(${due}.isEmpty() == false)`;
  const schedSet = `(${scheduled}.isEmpty() == false)`;
  const dueDay = dayOf(due);
  const schedDay = dayOf(scheduled);
  const daysFrom = (expr: string): string =>
    `((number(date(${expr})) - number(today())) / ${DAY_MS}).floor()`;
  const ageDays = `((number(now()) - number(file.ctime)) / ${DAY_MS})`;
  const trackedMinutes = (filter: string): string =>
    `list(${entries}).filter(${filter}).map((number(date(value.endTime)) - number(date(value.startTime))) / 60000).reduce(acc + value, 0)`;
  const tracked = trackedMinutes('value.endTime');
  const notCompleted = completedValues(s)
    .map((v) => `${status} != ${literal(v)}`)
    .join(' && ');
  const earlierOf = (fmt: (e: string) => string, none: string): string =>
    `if(${dueSet} && ${schedSet}, if(date(${due}) < date(${scheduled}), ${fmt(due)}, ${fmt(scheduled)}), if(${dueSet}, ${fmt(due)}, if(${schedSet}, ${fmt(scheduled)}, ${none})))`;
  const either = (cond: (day: string, expr: string) => string): string =>
    `(${dueSet} && ${cond(dueDay, due)}) || (${schedSet} && ${cond(schedDay, scheduled)})`;

  // Lower index = earlier in weight order; the weight-sorted position is the sort key.
  const byWeight = [...s.priorities].sort((a, b) => a.weight - b.weight);
  const priorityWeight = lookup(
    priority,
    byWeight.map((p, i) => [p.value, String(i)]),
    '999',
  );
  const priorityCategory = lookup(
    priority,
    s.priorities.map((p) => [p.value, literal(p.label)]),
    '"No priority"',
  );

  return {
    priorityWeight,
    daysUntilDue: `if(${dueSet}, ${daysFrom(due)}, null)`,
    daysUntilScheduled: `if(${schedSet}, ${daysFrom(scheduled)}, null)`,
    daysSinceCreated: `${ageDays}.floor()`,
    daysSinceModified: `((number(now()) - number(file.mtime)) / ${DAY_MS}).floor()`,
    dueIn: `if(${dueSet}, if(formula.daysUntilDue == 0, "Today", if(formula.daysUntilDue > 0, "In " + formula.daysUntilDue + "d", formula.daysUntilDue * -1 + "d ago")), "")`,
    isOverdue: `${dueSet} && date(${due}) < today()${notCompleted ? ` && ${notCompleted}` : ''}`,
    isDueToday: `${dueSet} && ${dueDay} == ${TODAY}`,
    isDueThisWeek: `${dueSet} && ${dueDay} >= ${TODAY} && ${dueDay} <= ${WEEK_END}`,
    isScheduledToday: `${schedSet} && ${schedDay} == ${TODAY}`,
    isRecurring: `${recurrence} && !${recurrence}.isEmpty()`,
    hasTimeEstimate: `${estimate} && ${estimate} > 0`,
    timeRemaining: `if(${estimate} && ${estimate} > 0, ${estimate} - if(${entries}, ${tracked}, 0), null)`,
    efficiencyRatio: `if(${estimate} && ${estimate} > 0 && ${entries}, (${tracked} / ${estimate} * 100).round(), null)`,
    timeTrackedThisWeek: `if(${entries}, ${trackedMinutes('value.endTime && date(value.startTime) >= today() - "7d"')}.round(), 0)`,
    timeTrackedToday: `if(${entries}, ${trackedMinutes(`value.endTime && ${dayOf('value.startTime')} == ${TODAY}`)}.round(), 0)`,
    dueMonth: `if(${dueSet}, date(${due}).format("YYYY-MM"), "No due date")`,
    dueWeek: `if(${dueSet}, date(${due}).format("YYYY-[W]WW"), "No due date")`,
    scheduledMonth: `if(${schedSet}, date(${scheduled}).format("YYYY-MM"), "Not scheduled")`,
    scheduledWeek: `if(${schedSet}, date(${scheduled}).format("YYYY-[W]WW"), "Not scheduled")`,
    dueDateCategory: `if(${due}.isEmpty(), "No due date", if(date(${due}) < today(), "Overdue", if(${dueDay} == ${TODAY}, "Today", if(${dueDay} == ${TOMORROW}, "Tomorrow", if(${dueDay} <= ${WEEK_END}, "This week", "Later")))))`,
    timeEstimateCategory: `if(!${estimate} || ${estimate} == 0 || ${estimate} == null, "No estimate", if(${estimate} < 30, "Quick (<30m)", if(${estimate} <= 120, "Medium (30m-2h)", "Long (>2h)")))`,
    ageCategory: `if(${ageDays} < 1, "Today", if(${ageDays} < 7, "This week", if(${ageDays} < 30, "This month", "Older")))`,
    createdMonth: 'file.ctime.format("YYYY-MM")',
    modifiedMonth: 'file.mtime.format("YYYY-MM")',
    priorityCategory,
    projectCount: `if(!${projects} || list(${projects}).length == 0, "No projects", if(list(${projects}).length == 1, "Single project", "Multiple projects"))`,
    contextCount: `if(!${contexts} || list(${contexts}).length == 0, "No contexts", if(list(${contexts}).length == 1, "Single context", "Multiple contexts"))`,
    trackingStatus: `if(!${estimate} || ${estimate} == 0 || ${estimate} == null, "No estimate", if(!${entries} || list(${entries}).length == 0, "Not started", if(formula.efficiencyRatio < 100, "Under estimate", "Over estimate")))`,
    nextDate: earlierOf((e) => e, 'null'),
    daysUntilNext: `if(${dueSet} && ${schedSet}, min(formula.daysUntilDue, formula.daysUntilScheduled), if(${dueSet}, formula.daysUntilDue, formula.daysUntilScheduled))`,
    hasDate: `${dueSet} || ${schedSet}`,
    isToday: either((day) => `${day} == ${TODAY}`),
    isThisWeek: either((day) => `${day} >= ${TODAY} && ${day} <= ${WEEK_END}`),
    nextDateCategory: `if(${due}.isEmpty() && ${scheduled}.isEmpty(), "No date", if(${either((_d, e) => `date(${e}) < today()`)}, "Overdue/Past", if(${either((d) => `${d} == ${TODAY}`)}, "Today", if(${either((d) => `${d} == ${TOMORROW}`)}, "Tomorrow", if(${either((d) => `${d} <= ${WEEK_END}`)}, "This week", "Later")))))`,
    nextDateMonth: earlierOf((e) => `date(${e}).format("YYYY-MM")`, '"No date"'),
    nextDateWeek: earlierOf((e) => `date(${e}).format("YYYY-[W]WW")`, '"No date"'),
    // Priority, closeness of the next date, and a 0..1 time-of-day term so earlier slots rank first.
    urgencyScore: `if(${due}.isEmpty() && ${scheduled}.isEmpty(), formula.priorityWeight, formula.priorityWeight + max(0, 10 - if(formula.daysUntilNext, formula.daysUntilNext, 0)) + (1 - ((number(date(formula.nextDate)) - number(date(date(formula.nextDate).format("YYYY-MM-DD")))) / ${DAY_MS})))`,
    timeTrackedFormatted: `if(${entries}, if(${tracked} >= 60, (${tracked} / 60).floor() + "h " + (${tracked} % 60).round() + "m", ${tracked}.round() + "m"), "0m")`,
    dueDateDisplay: `if(${due}.isEmpty(), "", if(${dueDay} == ${TODAY}, "Today", if(${dueDay} == ${TOMORROW}, "Tomorrow", if(${dueDay} == ${YESTERDAY}, "Yesterday", if(date(${due}) < today(), formula.daysUntilDue * -1 + "d ago", if(${dueDay} <= ${WEEK_END}, date(${due}).format("ddd"), date(${due}).format("MMM D")))))))`,
  };
}
