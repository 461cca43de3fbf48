import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../tui/src/cli.js';

function pipeIO() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { io: { stdin: new PassThrough(), stdout, stderr, env: {}, cwd: process.cwd() }, output: () => out, errors: () => err };
}

describe('core-migrate with no subcommand', () => {
  it('prints how to use the headless commands when there is no terminal, instead of failing on raw mode', async () => {
    const { io, output } = pipeIO();
    const code = await main([], io);
    expect(code).toBe(2);
    expect(output()).toContain('needs a terminal');
    expect(output()).toContain('core-migrate push <file>');
    expect(output()).toContain('core-migrate check');
  });

  it('takes the export and every push flag, checked as push checks them', async () => {
    const { io, errors } = pipeIO();
    expect(await main(['users.json', '--concurrency', 'many'], io)).toBe(2);
    expect(errors()).toContain('--concurrency must be a whole number from 1 to 1024, not "many"');
    const withKey = pipeIO();
    expect(await main(['users.json', '--api-key', 'secret-value'], withKey.io)).toBe(2);
    expect(withKey.errors()).toContain('--api-key is not accepted');
  });

  it('takes the sync flags too (the app runs a sync when its journal holds an earlier export), checked as sync checks them', async () => {
    // The app prints a `sync … --deleted remove` command on leaving: the same flags must open it again.
    const { io, output, errors } = pipeIO();
    expect(
      await main(['users.json', '--journal', 'j.ndjson', '--deleted', 'remove', '--max-removals', '3', '--min-overlap', '50', '--ignore-overlap'], io),
    ).toBe(2);
    expect(errors()).toBe('');
    expect(output()).toContain('needs a terminal');
    const wrong = pipeIO();
    expect(await main(['users.json', '--deleted', 'purge'], wrong.io)).toBe(2);
    expect(wrong.errors()).toContain("argument 'purge' is invalid. Allowed choices are keep, remove.");
    const help = pipeIO();
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.output()).toContain('--deleted <policy>');
  });

  it("lists the push flags in its help, and keeps a subcommand's flags to that subcommand", async () => {
    const help = pipeIO();
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.output()).toContain('--auth0-password-file');
    expect(help.output()).toContain('--no-keep-ids');
    const push = pipeIO();
    expect(await main(['push', '--help'], push.io)).toBe(0);
    expect(push.output()).toContain('--verify-credentials');
  });
});
