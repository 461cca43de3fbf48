#!/usr/bin/env node
// Plain JavaScript that any Node can parse, so an old Node gets a sentence rather than a syntax error from the app.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`core-migrate needs Node.js 22.19 or newer (24 LTS recommended); this is Node.js ${process.versions.node}.\n`);
  process.exit(2);
}
const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv.slice(2));
