/** The end of every failed command: one line on stderr and the exit code (2 usage, 1 runtime). */
export function fail(message: string, code: number): never {
  process.stderr.write(`taskdown: ${message}\n`);
  process.exit(code);
}
