// Types of the conformance adapter (ADAPTER_CONTRACT.md) for TypeScript callers (the test suite).
export interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: string;
  error_details?: unknown;
}

export interface AdapterMetadata {
  implementation: string;
  version: string;
  spec_version: string;
  validation_modes: readonly string[];
  profiles: readonly string[];
  capabilities: readonly string[];
}

export declare const metadata: AdapterMetadata;
export declare function execute(operation: string, input: unknown): Promise<Envelope>;
