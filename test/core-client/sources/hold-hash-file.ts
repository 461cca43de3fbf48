// Run as a child process by auth0-temp.test.ts: opens a gzipped Auth0 hash export, reads part of its first pass (so
// the decompressed copy holds hashes), says "ready" and waits to be killed.
import { HashFile } from '../../../core-client/src/sources/auth0/hash-file.js';

const [file, tempRoot] = process.argv.slice(2);
if (file === undefined || tempRoot === undefined) throw new Error('usage: hold-hash-file.ts <gzipped hash file> <temp root>');
const hashes = await HashFile.open(file, tempRoot);
let lines = 0;
for await (const _line of hashes.firstPass()) {
  lines += 1;
  if (lines === 100) break;
}
process.stdout.write(`ready ${await hashes.lineAt(0)}\n`);
setInterval(() => undefined, 60_000);
