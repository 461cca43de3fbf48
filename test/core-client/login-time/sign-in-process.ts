/*
 * One backend server of a test: opens the login-time migration on a store and a core given as arguments, says
 * `ready`, waits for `go` on its standard input (so that two such processes ask at the same moment), asks once with
 * the password from the environment, and prints the answer as JSON.
 */
import { createInterface } from 'node:readline';
import { CoreClient } from '../../../core-client/src/http/core-client.js';
import { migrateAtLogin, openLoginMigration } from '../../../core-client/src/login-time/migrate-at-login.js';
import { Secret } from '../../../core-client/src/secret.js';

const [storeLocation, coreUrl, apiKey, email] = process.argv.slice(2);
if (storeLocation === undefined || coreUrl === undefined || apiKey === undefined || email === undefined) {
  throw new Error('usage: sign-in-process.ts STORE CORE_URL API_KEY EMAIL (password in SIGN_IN_PASSWORD)');
}
const client = new CoreClient({ baseUrl: coreUrl, apiKey: new Secret(apiKey), retry: false });
const login = await openLoginMigration({ store: storeLocation, core: client });
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line === 'go') break;
}
const answer = await migrateAtLogin(login, { email, password: new Secret(process.env['SIGN_IN_PASSWORD'] ?? '') });
process.stdout.write(`${JSON.stringify(answer)}\n`);
await login.close();
await client.close();
