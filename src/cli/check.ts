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
import { silentLogger } from '../core/logger.js';
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
  const tasks = await TaskService.open({
    vault: options.vault,
    dataDir: options.dataDir,
    events: new EventBus(systemClock, silentLogger),
    clock: systemClock,
    log: silentLogger,
    readOnly: true,
  });
  try {
    const notes = tasks.checkAll();
    const issues = notes.flatMap(({ path, issues: list }) =>
      list.map((issue) => ({ note: path, field: issue.field ?? '', ...issue })),
    );
    const errors = issues.filter((i) => i.severity === 'error').length;
    const warnings = issues.length - errors;
    const scanned = tasks.paths().length;
    if (options.json) {
      // The spec release the rules come from (a vault's TaskNotes settings declare none).
      const specVersion = effectiveSpecVersion(undefined, SPEC_VERSION).value;
      out(`${JSON.stringify({ specVersion, tasks: scanned, errors, warnings, issues }, null, 2)}\n`);
    } else {
      for (const i of issues) {
        out(`${i.note}: ${i.field || '-'}: ${i.code} (${i.severity}): ${i.message ?? ''}\n`);
      }
      const noted = new Set(issues.map((i) => i.note)).size;
      err(
        `taskdown check: ${scanned} task notes, ${errors} errors and ${warnings} warnings in ${noted} notes\n`,
      );
    }
    return errors > 0 ? 1 : 0;
  } finally {
    await tasks.stop();
  }
}
