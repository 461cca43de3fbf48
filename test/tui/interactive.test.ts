import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../tui/src/cli.js';
import { exitCodeOfWalk } from '../../tui/src/commands/interactive.js';
import { pushSummary } from './screens/fixtures.js';

function pipeIO() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return { io: { stdin: new PassThrough(), stdout, stderr, env: {}, cwd: process.cwd() }, output: () => out };
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

  it('ends with the exit code a push would have', () => {
    expect(exitCodeOfWalk(undefined)).toBe(0);
    expect(exitCodeOfWalk(pushSummary())).toBe(1);
    expect(exitCodeOfWalk(pushSummary({ rejected: 0, imported: 12 }))).toBe(0);
    expect(exitCodeOfWalk(pushSummary({ stoppedEarly: { reason: 'authRejected', message: 'key refused' } }))).toBe(3);
  });
});
