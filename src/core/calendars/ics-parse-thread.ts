/**
 * The program of a thread that reads one ICS source (started by ics-parse-bounded.ts, which says
 * why): the source and the options arrive as workerData, what was read or the error go back as
 * one message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseIcsDetailed, type ParseIcsOptions } from './ics-parser.js';

const { source, options } = workerData as { source: string; options: ParseIcsOptions };
try {
  parentPort!.postMessage({ parsed: parseIcsDetailed(source, options) });
} catch (err) {
  parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
