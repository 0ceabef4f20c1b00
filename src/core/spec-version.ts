/** The tasknotes-spec release whose format, operations and conformance fixtures Taskdown targets. */
export const SPEC_VERSION = '0.3.0-rc.3';
