/**
 * The default `.base` files, one per TaskNotes command (the TaskNotes plugin and the
 * plugin's published "Default Base Templates"): mini calendar, kanban, task lists, calendar,
 * agenda, pomodoro statistics and relationships, generated from the current settings.
 */
import { Document, isMap, isPair, isScalar } from 'yaml';
import type { BasesSettings } from './bases-settings.js';
import {
  dayOf,
  dependencyFile,
  field,
  incompleteCondition,
  literal,
  noteRef,
  orderColumns,
  taskCondition,
  taskFilterConditions,
  TODAY,
  WEEK_END,
  completedValues,
} from './base-expressions.js';
import { taskFormulas } from './base-formulas.js';

interface Template {
  header: string[];
  body: Record<string, unknown>;
}

type View = Record<string, unknown>;

const sortBy = (column: string, direction: 'ASC' | 'DESC'): Array<Record<string, string>> => [
  { column, direction },
];
const groupBy = (property: string): Record<string, string> => ({ property, direction: 'ASC' });

function taskBody(s: BasesSettings, views: View[]): Record<string, unknown> {
  return { filters: { and: taskFilterConditions(s) }, formulas: taskFormulas(s), views };
}

function miniCalendar(s: BasesSettings): Template {
  const due = s.fieldMapping.due;
  return {
    header: ['Mini Calendar', 'Generated with your TaskNotes settings'],
    body: taskBody(s, [
      {
        type: 'tasknotesMiniCalendar',
        name: 'Due',
        order: orderColumns(s),
        sort: [{ property: due, direction: 'ASC' }],
        dateProperty: due,
      },
      { type: 'tasknotesMiniCalendar', name: 'Scheduled', order: [], dateProperty: s.fieldMapping.scheduled },
      { type: 'tasknotesMiniCalendar', name: 'Created', dateProperty: 'file.ctime' },
      { type: 'tasknotesMiniCalendar', name: 'Modified', dateProperty: 'file.mtime' },
    ]),
  };
}

function kanban(s: BasesSettings): Template {
  return {
    header: ['Kanban Board'],
    body: taskBody(s, [
      {
        type: 'tasknotesKanban',
        name: 'Kanban Board',
        order: orderColumns(s),
        sort: sortBy(s.fieldMapping.sortOrder, 'DESC'),
        groupBy: groupBy(s.fieldMapping.status),
        options: { columnWidth: 280, hideEmptyColumns: false },
      },
    ]),
  };
}

function taskLists(s: BasesSettings): Template {
  const order = orderColumns(s);
  const due = field(s, 'due');
  const scheduled = field(s, 'scheduled');
  const blockedBy = field(s, 'blockedBy');
  const blockerOpen = completedValues(s)
    .map((v) => `${dependencyFile('value')}.properties[${literal(s.fieldMapping.status)}] != ${literal(v)}`)
    .join(' && ');
  const filtered = (name: string, extra: unknown[]): View => ({
    type: 'tasknotesTaskList',
    name,
    filters: { and: [incompleteCondition(s), ...extra] },
    order,
    sort: sortBy('formula.urgencyScore', 'DESC'),
  });
  const dueOr = (dueCond: string, schedCond: string) => ({
    or: [
      { and: [`${due}.isEmpty() == false`, dueCond] },
      { and: [`${scheduled}.isEmpty() == false`, schedCond] },
    ],
  });
  return {
    header: ['All Tasks'],
    body: taskBody(s, [
      {
        type: 'tasknotesTaskList',
        name: 'Manual Order',
        order,
        sort: sortBy(s.fieldMapping.sortOrder, 'DESC'),
        groupBy: groupBy(s.fieldMapping.status),
      },
      { type: 'tasknotesTaskList', name: 'All Tasks', order, sort: sortBy(s.fieldMapping.due, 'ASC') },
      filtered('Not Blocked', [
        { or: [`${blockedBy}.isEmpty()`, `list(${blockedBy}).filter(${blockerOpen || 'false'}).isEmpty()`] },
      ]),
      filtered('Today', [dueOr(`${dayOf(due)} == ${TODAY}`, `${dayOf(scheduled)} == ${TODAY}`)]),
      filtered('Overdue', [dueOr(`date(${due}) < today()`, `date(${scheduled}) < today()`)]),
      filtered('This Week', [
        {
          or: [
            {
              and: [`${due}.isEmpty() == false`, `${dayOf(due)} >= ${TODAY}`, `${dayOf(due)} <= ${WEEK_END}`],
            },
            {
              and: [
                `${scheduled}.isEmpty() == false`,
                `${dayOf(scheduled)} >= ${TODAY}`,
                `${dayOf(scheduled)} <= ${WEEK_END}`,
              ],
            },
          ],
        },
      ]),
      {
        ...filtered('Unscheduled', [`date(${due}).isEmpty()`, `date(${scheduled}).isEmpty()`]),
        sort: sortBy(s.fieldMapping.status, 'ASC'),
      },
    ]),
  };
}

function calendar(s: BasesSettings): Template {
  return {
    header: ['Calendar'],
    body: taskBody(s, [
      {
        type: 'tasknotesCalendar',
        name: 'Calendar',
        order: orderColumns(s),
        options: {
          showScheduled: true,
          showDue: true,
          showRecurring: true,
          showTimeEntries: true,
          showTimeblocks: true,
          showPropertyBasedEvents: true,
          createDailyNotesFromDateLinks: true,
          calendarView: 'timeGridWeek',
          customDayCount: 3,
          firstDay: 0,
          slotMinTime: '06:00:00',
          slotMaxTime: '22:00:00',
          slotDuration: '00:30:00',
        },
      },
    ]),
  };
}

function agenda(s: BasesSettings): Template {
  return {
    header: ['Agenda'],
    body: taskBody(s, [
      {
        type: 'tasknotesCalendar',
        name: 'Agenda',
        order: [...orderColumns(s), 'formula.dueIn'],
        // Property-based events would duplicate tasks that already show by due/scheduled date.
        options: { showPropertyBasedEvents: false, createDailyNotesFromDateLinks: true },
        calendarView: 'listWeek',
        startDateProperty: 'file.ctime',
        listDayCount: 7,
        titleProperty: 'file.basename',
      },
    ]),
  };
}

function pomodoroStats(s: BasesSettings): Template {
  const name = s.fieldMapping.pomodoros;
  const p = noteRef(name);
  const work = `list(${p}).filter(value.type == "work")`;
  const done = `list(${p}).filter(value.type == "work" && value.completed == true)`;
  const minutes = `${done}.map(if(value.plannedDuration && value.plannedDuration > 0, value.plannedDuration, if(value.startTime && value.endTime, ((number(date(value.endTime)) - number(date(value.startTime))) / 60000).round(), 0)))`;
  const columns = (withMinutes: boolean): string[] => [
    'formula.pomodoroDate',
    'formula.completedPomos',
    ...(withMinutes ? ['formula.focusMinutes'] : []),
    'formula.focusTime',
    'formula.attemptedPomos',
    'formula.completionRate',
    'formula.interruptedPomos',
    'formula.shortBreaks',
    'formula.longBreaks',
    'file.name',
  ];
  const labels: Record<string, string> = {
    pomodoroDate: 'Date',
    pomodoroMonth: 'Month',
    completedPomos: 'Completed',
    attemptedPomos: 'Attempted',
    interruptedPomos: 'Interrupted',
    focusMinutes: 'Focus minutes',
    focusTime: 'Focus time',
    completionRate: 'Completion',
    shortBreaks: 'Short breaks',
    longBreaks: 'Long breaks',
  };
  const sums = [
    'completedPomos',
    'focusMinutes',
    'attemptedPomos',
    'interruptedPomos',
    'shortBreaks',
    'longBreaks',
  ];
  return {
    header: [
      'Pomodoro statistics',
      'Generated with your TaskNotes settings',
      'Requires Pomodoro data storage to be set to Daily notes.',
    ],
    body: {
      filters: {
        and: [`file.hasProperty(${literal(name)})`, `list(${p}).filter(value.startTime).isEmpty() == false`],
      },
      formulas: {
        pomodoroDate: `if(${p}, list(${p}).filter(value.startTime).map(date(value.startTime).format("YYYY-MM-DD")).unique().join(", "), file.basename)`,
        pomodoroMonth: `if(${p}, list(${p}).filter(value.startTime).map(date(value.startTime).format("YYYY-MM")).unique().join(", "), "")`,
        completedPomos: `if(${p}, ${done}.length, 0)`,
        attemptedPomos: `if(${p}, ${work}.length, 0)`,
        interruptedPomos: `if(${p}, list(${p}).filter(value.type == "work" && value.completed == false).length, 0)`,
        focusMinutes: `if(${p}, ${minutes}.reduce(acc + value, 0).round(), 0)`,
        focusTime:
          'if(formula.focusMinutes >= 60, (formula.focusMinutes / 60).floor() + "h " + (formula.focusMinutes % 60).round() + "m", formula.focusMinutes + "m")',
        completionRate:
          'if(formula.attemptedPomos > 0, (formula.completedPomos / formula.attemptedPomos * 100).round() + "%", "0%")',
        shortBreaks: `if(${p}, list(${p}).filter(value.type == "short-break").length, 0)`,
        longBreaks: `if(${p}, list(${p}).filter(value.type == "long-break").length, 0)`,
      },
      properties: Object.fromEntries(
        Object.entries(labels).map(([k, v]) => [`formula.${k}`, { displayName: v }]),
      ),
      views: [
        { type: 'table', name: 'Daily', order: columns(false), sort: sortBy('formula.pomodoroDate', 'DESC') },
        {
          type: 'table',
          name: 'Monthly',
          groupBy: { property: 'formula.pomodoroMonth', direction: 'DESC' },
          order: columns(true),
          summaries: Object.fromEntries(sums.map((k) => [`formula.${k}`, 'Sum'])),
          sort: sortBy('formula.pomodoroDate', 'DESC'),
        },
      ],
    },
  };
}

function relationships(s: BasesSettings): Template {
  const order = orderColumns(s);
  const task = taskCondition(s);
  const projects = field(s, 'projects');
  const blockedBy = s.fieldMapping.blockedBy;
  const manual = sortBy(s.fieldMapping.sortOrder, 'DESC');
  const linksOf = (list: string): string => `list(${list}).map(${dependencyFile('value')}.asLink())`;
  return {
    header: [
      'Relationships',
      'This view shows all relationships for the current file',
      'Dynamically shows/hides tabs based on available data',
    ],
    body: {
      // No top-level task filter: a project can be any note.
      formulas: taskFormulas(s),
      views: [
        {
          type: 'tasknotesKanban',
          name: 'Subtasks',
          filters: { and: [task, `list(${projects}).contains(this.file.asLink())`] },
          order,
          sort: manual,
          groupBy: groupBy(s.fieldMapping.status),
        },
        {
          type: 'tasknotesTaskList',
          name: 'Projects',
          filters: { and: [`list(this.note[${literal(s.fieldMapping.projects)}]).contains(file.asLink())`] },
          order,
        },
        {
          type: 'tasknotesTaskList',
          name: 'Blocked By',
          filters: { and: [task, `${linksOf(`this.note[${literal(blockedBy)}]`)}.contains(file.asLink())`] },
          order,
          sort: manual,
        },
        {
          type: 'tasknotesKanban',
          name: 'Blocking',
          filters: { and: [task, `${linksOf(noteRef(blockedBy))}.contains(this.file.asLink())`] },
          order,
          sort: manual,
          groupBy: groupBy(s.fieldMapping.status),
        },
      ],
    },
  };
}

const TEMPLATES: Record<string, (s: BasesSettings) => Template> = {
  'open-calendar-view': miniCalendar,
  'open-kanban-view': kanban,
  'open-tasks-view': taskLists,
  'open-advanced-calendar-view': calendar,
  'open-agenda-view': agenda,
  'pomodoro-stats-base': pomodoroStats,
  relationships,
};

/** The YAML of the default file for `commandId`, or undefined when the command has no template. */
export function renderBaseTemplate(commandId: string, settings: BasesSettings): string | undefined {
  const build = Object.hasOwn(TEMPLATES, commandId) ? TEMPLATES[commandId] : undefined;
  if (!build) return undefined;
  const { header, body } = build(settings);
  // Shared lists (the order columns) are written out in full: aliases would confuse hand edits.
  const doc = new Document(body, { aliasDuplicateObjects: false });
  doc.commentBefore = header.map((line) => ` ${line}`).join('\n');
  // A blank line between the top-level sections, as in the published templates.
  if (isMap(doc.contents)) {
    doc.contents.items.forEach((item, i) => {
      if (i > 0 && isPair(item) && isScalar(item.key)) item.key.spaceBefore = true;
    });
  }
  // No folding: Bases reads each expression as one scalar, and long ones stay readable on one line.
  return doc.toString({ lineWidth: 0, singleQuote: true });
}
