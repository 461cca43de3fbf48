import { open } from 'node:fs/promises';

/**
 * The most a file named by a setting may hold (a hash config, a mapping, a roles file, known accounts, a CA bundle,
 * an api-key): far above any real one (a CA bundle of every public authority is about 250 KB), and a bound on what
 * `--hash-config /dev/zero` or an export given by mistake can cost.
 */
export const MAX_SETTING_FILE_BYTES = 4 * 1024 * 1024;

const CHUNK_BYTES = 64 * 1024;

/** Reads a small file a setting names, as UTF-8, never more than `maxBytes`: a larger one is refused (`EFBIG`). */
export async function readSettingText(path: string, maxBytes = MAX_SETTING_FILE_BYTES): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) {
        throw Object.assign(new Error(`${path} holds more than ${maxBytes} bytes`), { code: 'EFBIG' });
      }
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Why a file could not be read, in the words of a sentence: "more than 4 MiB: is it the right file?", or the code. */
export function readFailureReason(error: unknown): string {
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'unreadable';
  return code === 'EFBIG' ? `more than ${MAX_SETTING_FILE_BYTES / 1024 / 1024} MiB: is it the right file?` : code;
}
