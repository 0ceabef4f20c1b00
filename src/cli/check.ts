/**
 * `taskdown check --vault DIR [--json]`: validates every task note of a vault with the validator
 * every write runs (tasknotes-spec §6, against the vault's TaskNotes settings) and lists the
 * problems — useful before pointing automation at an old vault. Read-only: no watcher, no index
 * snapshot, nothing written. Output: one line per issue, `<note>: <field>: <code> (<severity>):
 * <message>`, and a summary on stderr; with --json one document on stdout. Exit 1 when there is
 * an error, else 0.
 */
import { systemClock } from '../core/clock.js';
import { effectiveSpecVersion } from '../core/config/providers.js';
import { SPEC_VERSION } from '../core/spec-version.js';
import { EventBus } from '../core/events/bus.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { TaskService } from '../core/tasks/task-service.js';

export interface CheckOptions {
  vault: string;
  dataDir: string;
  json: boolean;
}

/** Runs the check, writes its report to `out`/`err`; resolves with the exit code. */
export async function runCheck(
  options: CheckOptions,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  // What the index could not use (the plugin's settings file, a note or folder it could not read)
  // is reported: the notes' verdicts depend on it, and a note not read is a note not checked.
  const logged: Notice[] = [];
  const notice = (obj: object | string, msg?: string): void => void logged.push(noticeOf(obj, msg));
  const log: Logger = { debug: () => {}, info: () => {}, warn: notice, error: notice };
  const tasks = await TaskService.open({
    vault: options.vault,
    dataDir: options.dataDir,
    events: new EventBus(systemClock, silentLogger),
    clock: systemClock,
    log,
    readOnly: true,
  });
  try {
    const notes = tasks.checkAll();
    const issues = notes.flatMap(({ path, issues: list }) =>
      list.map((issue) => ({ note: path, field: issue.field ?? '', ...issue })),
    );
    // A note the validator reports on (broken YAML) needs no second line.
    const reported = new Set(issues.map((i) => i.note));
    const notices = logged.filter((n) => n.path === undefined || !reported.has(n.path));
    const errors = issues.filter((i) => i.severity === 'error').length;
    const warnings = issues.length - errors;
    const scanned = tasks.paths().length;
    if (options.json) {
      // The spec release the rules come from (a vault's TaskNotes settings declare none).
      const specVersion = effectiveSpecVersion(undefined, SPEC_VERSION).value;
      out(`${JSON.stringify({ specVersion, tasks: scanned, errors, warnings, issues, notices }, null, 2)}\n`);
    } else {
      for (const n of notices) err(`taskdown check: ${n.message}${n.path ? `: ${n.path}` : ''}\n`);
      for (const i of issues) {
        out(`${i.note}: ${i.field || '-'}: ${i.code} (${i.severity}): ${i.message ?? ''}\n`);
      }
      err(
        `taskdown check: ${scanned} task notes, ${errors} errors and ${warnings} warnings in ${reported.size} notes\n`,
      );
    }
    return errors > 0 ? 1 : 0;
  } finally {
    await tasks.stop();
  }
}

interface Notice {
  message: string;
  path?: string;
}

/** A log line of the index as a notice: its message, the path it names, and the error's reason. */
function noticeOf(obj: object | string, msg?: string): Notice {
  if (typeof obj === 'string') return { message: obj };
  const fields = obj as { path?: unknown; reason?: unknown; err?: { message?: unknown } };
  const reason = typeof fields.reason === 'string' ? fields.reason : fields.err?.message;
  // The reason's first line: a parser's message may go on with a picture of the source.
  const message = `${msg ?? ''}${typeof reason === 'string' ? ` (${reason.split('\n')[0]})` : ''}`;
  return typeof fields.path === 'string' ? { message, path: fields.path } : { message };
}
