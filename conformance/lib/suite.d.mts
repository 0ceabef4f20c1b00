// Types of the fixture runner (suite.mjs) for TypeScript callers (the test suite).
import type { Envelope } from '../adapter.mjs';

export interface Fixture {
  id: string;
  section: string;
  profile: string;
  operation: string;
  assertion: string;
  requires?: string[];
  input: Record<string, unknown>;
  expect?: Record<string, unknown>;
}

export interface SuiteFile {
  file: string;
  fixtures: Fixture[];
}

export interface Claim {
  implementation: string;
  version: string;
  spec_version: string;
  profiles: string[];
  capabilities: string[];
}

export interface Failure {
  id: string;
  operation: string;
  message: string;
  waived: boolean;
}

export interface FileTally {
  file: string;
  passed: number;
  failed: number;
  waived: number;
  skipped: number;
  failures: Failure[];
}

export interface Adapter {
  execute(operation: string, input: unknown): Promise<Envelope>;
}

export declare function fixturesDir(): string;
export declare function loadSuite(dir?: string): SuiteFile[];
export declare function loadWaivers(file?: string): Set<string>;
export declare function skipReason(
  fixture: Fixture,
  claim: Pick<Claim, 'profiles' | 'capabilities'>,
): string | null;
export declare function runSuite(
  adapter: Adapter,
  options?: { suite?: SuiteFile[]; waivers?: Set<string> },
): Promise<{ claim: Claim; files: FileTally[] }>;
export declare function formatTable(files: ReadonlyArray<Omit<FileTally, 'failures'>>): string[];
