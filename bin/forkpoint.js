#!/usr/bin/env node
// The CLI runs compiled JavaScript: Node with forkpoint's dependencies starts in a
// fraction of the time a TypeScript loader takes (DESIGN.md, "Start-up").
let cli;
try {
  cli = await import('../dist/src/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write('forkpoint: USAGE: forkpoint is not built yet; run `npm install` (or `npm run build`) first\n');
  process.exit(2);
}
// A reader that stops early (`forkpoint show RUN | head -1`) closes the pipe: the output ends there, with the
// status the command has so far, and not in an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit();
  });
}
process.exitCode = await cli.runCli(process.argv.slice(2));
