import { constants, closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import { access, lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Problem } from '../problem.js';
import { fileRoleWords, settingOfRole, type FileRole, type FileSetting } from './file-roles.js';

/** A file the run reads or writes, named by its role so a refusal can say which is which. */
export interface NamedFile {
  /** Which file it is (`report`); its sentence words are `fileRoleWords[role]` ("the report"). */
  role: FileRole;
  path: string;
}

/** An output that cannot be written (or would overwrite another file): its setting, when one names it, fixes it. */
export class OutputPathError extends Problem<FileSetting, 'outputRefused'> {
  override readonly name = 'OutputPathError';
  constructor(
    words: string,
    /** The output at fault, so a face can lead to the setting that fixes it. */
    readonly role?: FileRole,
  ) {
    super('outputRefused', 'setting', settingOfRole(role), words);
  }
}

/** The identity of a path: device and inode when it exists, else the real folder and the name it would get. */
type Identity = { exists: true; id: string } | { exists: false; id: string };

/**
 * Refuses, before anything is opened, an output that is an input or another output: the same path, a symbolic
 * link to it or a hard link of it (existing files compare by device and inode, new ones by their real folder and
 * name; an input that does not exist now is compared by its name too, as a file that comes and goes, a SQLite
 * store's `-wal`, is still the input's). Also refuses an output that is a link, a device (`/dev/null`), a FIFO or a folder, one in a folder that
 * does not exist, and one that cannot be created there (read-only file system, no permission).
 * Every output path of the project goes through here (report, journal, saved hash parameters, rollback files).
 */
export async function checkOutputPaths(inputs: readonly NamedFile[], outputs: readonly NamedFile[]): Promise<OutputPathError | undefined> {
  const seen: { file: NamedFile; identity: Identity; output: boolean }[] = [];
  for (const input of inputs) {
    const identity = await inputIdentity(input.path);
    if (identity !== undefined) seen.push({ file: input, identity, output: false });
  }
  for (const output of outputs) {
    const identity = await outputIdentity(output);
    if (identity instanceof OutputPathError) return identity;
    const clash = seen.find((other) => other.identity.id === identity.id);
    if (clash !== undefined) {
      const same = clash.file.path === output.path ? 'it is the same path' : 'it is the same file (through a link)';
      return new OutputPathError(
        `${capital(fileRoleWords[output.role])} ${output.path} would overwrite ${fileRoleWords[clash.file.role]} ${clash.file.path}: ${same}. ` +
          `Choose another path for ${fileRoleWords[output.role]}; nothing was opened.`,
        output.role,
      );
    }
    seen.push({ file: output, identity, output: true });
  }
  return undefined;
}

async function inputIdentity(path: string): Promise<Identity | undefined> {
  const full = resolve(path);
  try {
    const info = await stat(full);
    return { exists: true, id: `${info.dev}:${info.ino}` };
  } catch {
    const realFolder = await realpath(dirname(full)).catch(() => undefined);
    return realFolder === undefined ? undefined : { exists: false, id: join(realFolder, basename(full)) };
  }
}

async function outputIdentity(output: NamedFile): Promise<Identity | OutputPathError> {
  const path = resolve(output.path);
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => error);
  if (!(info instanceof Error)) {
    if (info.isSymbolicLink()) {
      return new OutputPathError(
        `${capital(fileRoleWords[output.role])} ${output.path} is a symbolic link; outputs are never written through a link. Name the file itself, or another path.`,
        output.role,
      );
    }
    if (!info.isFile())
      return new OutputPathError(
        `${capital(fileRoleWords[output.role])} ${output.path} is ${kindOf(info)}, not a regular file: choose a file path.`,
        output.role,
      );
    const folder = dirname(path);
    const writable = await access(path, constants.W_OK).then(
      () => undefined,
      (error: NodeJS.ErrnoException) => error,
    );
    if (writable !== undefined) return new OutputPathError(outputErrorSentence(writable, output, folder), output.role);
    return { exists: true, id: `${info.dev}:${info.ino}` };
  }
  if (info.code !== 'ENOENT') return new OutputPathError(outputErrorSentence(info, output, dirname(path)), output.role);
  const folder = dirname(path);
  const realFolder = await realpath(folder).catch((error: NodeJS.ErrnoException) => error);
  if (realFolder instanceof Error) return new OutputPathError(outputErrorSentence(realFolder, output, folder), output.role);
  const creatable = await access(realFolder, constants.W_OK).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error,
  );
  if (creatable !== undefined) return new OutputPathError(outputErrorSentence(creatable, output, folder), output.role);
  return { exists: false, id: join(realFolder, basename(path)) };
}

function kindOf(info: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One sentence for a failure to create, open or write an output: what, where, the fix. */
export function outputErrorSentence(error: NodeJS.ErrnoException, output: NamedFile, folder = dirname(resolve(output.path))): string {
  const where = `${fileRoleWords[output.role]} ${output.path}`;
  switch (error.code) {
    case 'ENOENT':
      return `${capital(where)} cannot be created: the folder ${folder} does not exist. Create it, or choose another path.`;
    case 'ENOTDIR':
      return `${capital(where)} cannot be created: part of ${folder} is not a folder. Choose another path.`;
    case 'EROFS':
      return `${capital(where)} cannot be written: ${folder} is on a read-only file system. Choose a path on a writable one.`;
    case 'EACCES':
    case 'EPERM':
      return `${capital(where)} cannot be written: permission denied. Choose a path you may write, or fix the permissions of ${folder}.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `${capital(where)} cannot be written: the disk (or your quota) is full. Free space, then run the same command again.`;
    case 'ELOOP':
      return `${capital(where)} is a symbolic link; outputs are never written through a link. Name the file itself, or another path.`;
    case 'EISDIR':
      return `${capital(where)} is a folder, not a file: choose a file path.`;
    case 'ENXIO':
      return `${capital(where)} is a FIFO or a device nothing reads from: choose a regular file.`;
    case 'EIO':
      return `${capital(where)} cannot be written: the device reported an I/O error. Check the disk, then run the same command again.`;
    default:
      return `${capital(where)} cannot be written (${error.code ?? error.message}). Check the path, then run the same command again.`;
  }
}

/**
 * Opens an output for writing: never through a symbolic link (O_NOFOLLOW), created readable by the owner only
 * (reports and journals name users), and only if it is a regular file (a FIFO would block, a device swallow).
 */
export function openOutputFile(output: NamedFile, options: { append: boolean }): number {
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0) | (options.append ? constants.O_APPEND : constants.O_TRUNC);
  let fd: number;
  try {
    fd = openSync(resolve(output.path), flags, 0o600);
  } catch (error) {
    throw new OutputPathError(outputErrorSentence(error as NodeJS.ErrnoException, output), output.role);
  }
  const info = fstatSync(fd);
  if (!info.isFile()) {
    closeSync(fd);
    throw new OutputPathError(`${capital(fileRoleWords[output.role])} ${output.path} is ${kindOf(info)}, not a regular file: choose a file path.`, output.role);
  }
  return fd;
}

/**
 * Writes all of `text`, or throws. `writeSync` may write only part of what it is given (a disk that fills up
 * mid-write) without an error: the rest would be lost silently, and a write-ahead line that is not whole says
 * nothing. Writing on until every byte is out makes the disk's "full" a thrown ENOSPC, before the caller goes on.
 */
export function writeFully(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}
