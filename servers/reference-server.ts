/**
 * The reference engine as a wire-protocol server (schemas/README.md):
 *
 *   node -r ./tools/register.js servers/reference-server.ts
 *
 * Requests on stdin, responses on stdout, one JSON line each; diagnostics on
 * stderr. Exits when stdin closes.
 */
import { serve } from '../protocol/serve';
import { createImplementation } from '../reference/adapter';

// stdout carries protocol lines only: anything that logs goes to stderr.
console.log = console.info = console.debug = console.error;

process.stdout.on('error', () => process.exit(0)); // the runner went away
serve({ createImplementation }).then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`reference server: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(70);
  },
);
