import { Command } from 'commander';
import { registerLoginMigrationServe } from '../../../tui/src/commands/login-migration-serve.js';
import { processIO } from '../../../tui/src/io.js';
import { fixtureMigrate, waitingUsersFromFixtures } from '../../support/login-migrate-fixture.js';

/**
 * `login-migration serve` as its own process, as the binary runs it, with the test's migration: the waiting users of
 * the families in FIXTURE_FAMILIES, checked against their real legacy hashes by the service's verifier pool. (The
 * binary's own opener needs the waiting store, which is built elsewhere.)
 */
const families = (process.env['FIXTURE_FAMILIES'] ?? '').split(',').filter((family) => family !== '');
const users = waitingUsersFromFixtures(families);
const program = new Command('core-migrate').exitOverride().enablePositionalOptions();
const loginMigration = program.command('login-migration');
registerLoginMigrationServe(loginMigration.command('serve'), { io: processIO(), setExitCode: (code) => (process.exitCode = code) }, async ({ verify }) => ({
  migrate: fixtureMigrate(users, verify),
  close: async () => undefined,
}));
await program.parseAsync(process.argv.slice(2), { from: 'user' });
