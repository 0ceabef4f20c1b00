// An esbuild plugin for the server bundle: Fastify's `lib/server.js` loads `node:http2` and
// `node:https` when Fastify loads, for servers made with its `http2` or `https` option, which
// Taskdown never sets. Loading them took about 6 ms (Node 20.20) and 14–22 ms (Node 24.21) of
// every start on the development machine (`node:http2` most of it; docs/performance.md). In the
// bundle each becomes an object that loads the module on its first property read: Fastify only
// reads `createServer` and `createSecureServer` from them.
//
// The plugin rewrites the exact lines it knows and fails the build when one is missing, so that a
// Fastify release that changes them is looked at rather than bundled unchanged.
import { readFile } from 'node:fs/promises';

const FILE = /[\\/]node_modules[\\/]fastify[\\/]lib[\\/]server\.js$/;
const MODULES = ['http2', 'https'];

const LAZY = `function lazyBuiltin (id) {
  let loaded
  return new Proxy({}, { get: (_, key) => (loaded ??= require(id))[key] })
}
`;

export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onLoad({ filter: FILE }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      for (const name of MODULES) {
        const line = `const ${name} = require('node:${name}')`;
        if (!text.includes(line)) {
          throw new Error(`${args.path} no longer has "${line}": update scripts/lib/lazy-builtins.mjs`);
        }
        text = text.replace(line, `const ${name} = lazyBuiltin('node:${name}')`);
      }
      // At the end: a function declaration is hoisted, and the file's 'use strict' stays first.
      return { contents: `${text}\n${LAZY}`, loader: 'js' };
    });
  },
};
