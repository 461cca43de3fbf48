import { describe, expect, it } from 'vitest';
import { main } from '../../../tui/src/cli.js';
import { captureIO } from './captured-io.js';

async function helpOf(args: string[]): Promise<string> {
  const { io, stdout } = captureIO();
  expect(await main([...args, '--help'], io)).toBe(0);
  return stdout();
}

describe('every --help ends with the docs page of its command', () => {
  it.each([
    [['push'], 'docs/push.md'],
    [['check'], 'docs/push.md'],
    [['rollback'], 'docs/push.md'],
    [['journal'], 'docs/push.md'],
    [['journal', 'show'], 'docs/push.md'],
    [['plan'], 'docs/exports.md'],
    [['hash'], 'docs/hashes.md'],
    [['hash', 'inspect'], 'docs/hashes.md'],
    [['hash', 'verify'], 'docs/hashes.md'],
    [[], 'docs/app.md'],
  ])('%j → %s', async (args, page) => {
    const help = await helpOf(args);
    expect(help.trimEnd().split('\n').at(-1)).toBe(`Documentation: ${page} (in the core-migrate repository)`);
  });
});
