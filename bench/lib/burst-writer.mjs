// "Another program" changing many notes at once, in its own process:
//   burst-writer.mjs write <notes.json> <spreadMs>   writes the notes ([{abs, text}]) evenly over
//                                                    spreadMs, in slices every 10 ms;
//   burst-writer.mjs delete <folder>                 deletes the folder and everything in it.
// Prints `start <t>` before the first change and `done <t>` after the last, t in epoch ms
// (performance.timeOrigin + performance.now(), comparable across processes).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

const now = () => performance.timeOrigin + performance.now();
const [mode, arg, spread] = process.argv.slice(2);

if (mode === 'write') {
  const notes = JSON.parse(readFileSync(arg, 'utf8'));
  const spreadMs = Number(spread);
  const slices = Math.max(1, Math.round(spreadMs / 10));
  const perSlice = Math.ceil(notes.length / slices);
  const start = now();
  process.stdout.write(`start ${start}\n`);
  for (let i = 0, slice = 0; i < notes.length; i += perSlice, slice++) {
    // Slice `slice` is due at start + slice * 10 ms; a late slice is written at once.
    const wait = start + slice * 10 - now();
    if (wait > 0) await sleep(wait);
    for (const { abs, text } of notes.slice(i, i + perSlice)) writeFileSync(abs, text);
  }
} else if (mode === 'delete') {
  process.stdout.write(`start ${now()}\n`);
  rmSync(arg, { recursive: true });
} else {
  throw new Error(`unknown mode ${mode}`);
}
process.stdout.write(`done ${now()}\n`);
