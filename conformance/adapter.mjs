// tasknotes-spec conformance adapter for Taskdown (ADAPTER_CONTRACT.md, JavaScript binding).
// It holds no behaviour of its own: every operation goes to the project's dispatcher
// (src/conformance/execute.ts), which calls the domain modules under src/core.
// The compiled build (dist/, made by `npm run build`) is preferred; when it is missing and the
// process runs under tsx, the TypeScript source is loaded instead. TASKDOWN_ADAPTER_SOURCE=1
// forces the source (useful while editing without rebuilding).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const distEntry = new URL('../dist/src/conformance/execute.js', import.meta.url);
const sourceEntry = new URL('../src/conformance/execute.ts', import.meta.url);

async function loadDispatcher() {
  const forceSource = process.env.TASKDOWN_ADAPTER_SOURCE === '1';
  if (!forceSource && existsSync(fileURLToPath(distEntry))) return import(distEntry.href);
  try {
    return await import(sourceEntry.href);
  } catch (error) {
    throw new Error(
      `conformance adapter: ${fileURLToPath(distEntry)} is missing (run \`npm run build\`) and the ` +
        `TypeScript source could not be loaded without tsx (${error.message})`,
    );
  }
}

const dispatcher = await loadDispatcher();

export const metadata = dispatcher.conformanceMetadata;

export async function execute(operation, input) {
  try {
    return await dispatcher.execute(operation, input);
  } catch (error) {
    // The dispatcher already catches; this is the last guard of the never-throw rule.
    return { ok: false, error: String(error?.message ?? error) };
  }
}
