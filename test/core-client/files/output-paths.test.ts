import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { closeSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputPaths, openOutputFile, OutputPathError, outputErrorSentence, type NamedFile } from '../../../core-client/src/files/output-paths.js';

describe('checkOutputPaths', () => {
  let dir: string;
  let exportPath: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'outputs-'));
    exportPath = join(dir, 'users.ndjson');
    await writeFile(exportPath, '{"email":"a@example.com"}\n');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const inputs = (): NamedFile[] => [{ role: 'export', path: exportPath }];

  it('accepts new outputs in an existing folder', async () => {
    expect(
      await checkOutputPaths(inputs(), [
        { role: 'report', path: join(dir, 'r.ndjson') },
        { role: 'journal', path: join(dir, 'j') },
      ]),
    ).toBeUndefined();
  });

  it('refuses an output that is an input: by path, through a symbolic link, through a hard link', async () => {
    const same = await checkOutputPaths(inputs(), [{ role: 'report', path: exportPath }]);
    expect(same?.message).toMatch(/^The report .* would overwrite the export .*same path/);

    await symlink(exportPath, join(dir, 'alias.ndjson'));
    const viaSymlink = await checkOutputPaths(inputs(), [{ role: 'report', path: join(dir, 'alias.ndjson') }]);
    expect(viaSymlink).toBeInstanceOf(OutputPathError);

    await link(exportPath, join(dir, 'hard.ndjson'));
    const viaHardLink = await checkOutputPaths(inputs(), [{ role: 'journal', path: join(dir, 'hard.ndjson') }]);
    expect(viaHardLink?.message).toMatch(/would overwrite the export .*same file \(through a link\)/);
    // An input given through a link is the same file as its target too.
    const inputViaLink = await checkOutputPaths([{ role: 'export', path: join(dir, 'alias.ndjson') }], [{ role: 'report', path: exportPath }]);
    expect(inputViaLink).toBeInstanceOf(OutputPathError);
  });

  it('refuses an output named as an input that is not there now (a file that comes and goes), by its real folder and name', async () => {
    await mkdir(join(dir, 'real'));
    await symlink(join(dir, 'real'), join(dir, 'linked-folder'));
    const absent: NamedFile[] = [{ role: 'waitingStore', path: join(dir, 'real', 'store.sqlite-wal') }];
    expect((await checkOutputPaths(absent, [{ role: 'waitingList', path: join(dir, 'linked-folder', 'store.sqlite-wal') }]))?.message).toMatch(
      /would overwrite the waiting store .*store\.sqlite-wal/,
    );
    expect(await checkOutputPaths(absent, [{ role: 'waitingList', path: join(dir, 'real', 'list.csv') }])).toBeUndefined();
  });

  it('refuses two outputs that are one file, new (same real folder, same name) or existing (hard link)', async () => {
    await mkdir(join(dir, 'real'));
    await symlink(join(dir, 'real'), join(dir, 'linked-folder'));
    const refused = await checkOutputPaths(inputs(), [
      { role: 'journal', path: join(dir, 'real', 'f') },
      { role: 'report', path: join(dir, 'linked-folder', 'f') },
    ]);
    expect(refused?.message).toMatch(/The report .* would overwrite the journal/);

    await writeFile(join(dir, 'existing'), '');
    await link(join(dir, 'existing'), join(dir, 'existing-too'));
    expect(
      await checkOutputPaths(inputs(), [
        { role: 'journal', path: join(dir, 'existing') },
        { role: 'report', path: join(dir, 'existing-too') },
      ]),
    ).toBeInstanceOf(OutputPathError);
  });

  it('refuses a missing folder, a device, a FIFO, a folder and a symbolic link as an output, each with a sentence', async () => {
    expect((await checkOutputPaths(inputs(), [{ role: 'report', path: join(dir, 'nowhere', 'r') }]))?.message).toMatch(
      /the folder .*nowhere does not exist\. Create it, or choose another path\./,
    );
    expect((await checkOutputPaths(inputs(), [{ role: 'journal', path: '/dev/null' }]))?.message).toMatch(/is a device, not a regular file/);
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect((await checkOutputPaths(inputs(), [{ role: 'journal', path: join(dir, 'fifo') }]))?.message).toMatch(/is a FIFO \(named pipe\), not a regular file/);
    expect((await checkOutputPaths(inputs(), [{ role: 'journal', path: dir }]))?.message).toMatch(/is a folder/);
    await symlink(join(dir, 'elsewhere'), join(dir, 'dangling'));
    expect((await checkOutputPaths(inputs(), [{ role: 'report', path: join(dir, 'dangling') }]))?.message).toMatch(/symbolic link/);
  });
});

describe('openOutputFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'open-output-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the file readable by its owner only', async () => {
    const path = join(dir, 'report.ndjson');
    closeSync(openOutputFile({ role: 'report', path }, { append: true }));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('never writes through a symbolic link (the target stays untouched)', async () => {
    const target = join(dir, 'precious');
    await writeFile(target, 'keep me\n');
    await symlink(target, join(dir, 'link'));
    expect(() => openOutputFile({ role: 'report', path: join(dir, 'link') }, { append: false })).toThrow(/symbolic link/);
    expect(await readFile(target, 'utf8')).toBe('keep me\n');
  });

  it('refuses a FIFO without blocking, and a device', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(() => openOutputFile({ role: 'journal', path: join(dir, 'fifo') }, { append: true })).toThrow(OutputPathError);
    expect(() => openOutputFile({ role: 'journal', path: '/dev/null' }, { append: true })).toThrow(/device, not a regular file/);
  });

  it('a write on a full disk is told as a sentence (the real ENOSPC of /dev/full)', () => {
    const fd = openSync('/dev/full', 'w');
    let error: NodeJS.ErrnoException | undefined;
    try {
      writeSync(fd, 'x');
    } catch (caught) {
      error = caught as NodeJS.ErrnoException;
    } finally {
      closeSync(fd);
    }
    expect(error?.code).toBe('ENOSPC');
    expect(outputErrorSentence(error as NodeJS.ErrnoException, { role: 'journal', path: '/x/j' })).toBe(
      'The journal /x/j cannot be written: the disk (or your quota) is full. Free space, then run the same command again.',
    );
  });
});
