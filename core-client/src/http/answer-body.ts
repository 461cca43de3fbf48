import type { Dispatcher } from 'undici';

/** Every answer of the contract is a few hundred bytes; a core that sends more is broken or hostile. */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;

export type AnswerBody = { ok: true; text: string } | { ok: false; overLimit: true };

/**
 * Reads an answer's body as UTF-8 text, stopping at `maxBytes`: a longer body (by its Content-Length, or as it
 * streams) is destroyed at once, which closes the connection, so memory stays flat whatever the core sends.
 */
export async function readAnswerBody(body: Dispatcher.ResponseData['body'], contentLength: string | undefined, maxBytes: number): Promise<AnswerBody> {
  if (contentLength !== undefined && Number(contentLength) > maxBytes) {
    body.destroy();
    return { ok: false, overLimit: true };
  }
  // A declared length within the limit is held to by undici (a longer body is an error), so the fast path is safe.
  if (contentLength !== undefined && /^\d+$/.test(contentLength)) return { ok: true, text: await body.text() };
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > maxBytes) {
      body.destroy();
      return { ok: false, overLimit: true };
    }
    chunks.push(chunk);
  }
  return { ok: true, text: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, length).toString('utf8') };
}
