import type { IncomingMessage } from 'node:http';
import { type z } from 'zod';
import { Secret } from '../../secret.js';
import type { ServiceRefusal } from './service-refusal.js';
import { MigrateRequestSchema } from './service-settings.js';

/** A sign-in to migrate, read from a request: the password already a Secret. */
export interface MigrateRequest {
  email: string;
  password: Secret;
  clientAddress: string | undefined;
}

/** Why a body was refused: the status, and the refusal's code and sentence, which names fields and limits, never a value sent. */
export interface BodyRefusal {
  status: 400 | 413 | 415;
  refusal: ServiceRefusal;
}

const SHAPE = 'the body must be a JSON object {"email": string, "password": string, "clientAddress"?: IP address}';

/** Whether the request says JSON in UTF-8 (a charset, when given, must be utf-8). */
function contentTypeRefusal(request: IncomingMessage): BodyRefusal | undefined {
  const [type = '', ...parameters] = (request.headers['content-type'] ?? '').split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json')
    return { status: 415, refusal: { code: 'contentTypeRefused', error: 'send the body as Content-Type: application/json; charset=utf-8' } };
  const charset = parameters
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    return { status: 415, refusal: { code: 'charsetRefused', error: 'the body must be UTF-8 (charset=utf-8)' } };
  return undefined;
}

/** Reads at most `maxBytes`; a larger body is refused as soon as it is known to be larger, without reading the rest. */
async function readBounded(request: IncomingMessage, maxBytes: number): Promise<Buffer | BodyRefusal> {
  const tooLarge: BodyRefusal = { status: 413, refusal: { code: 'bodyTooLarge', error: `the body is larger than ${maxBytes} bytes` } };
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) return tooLarge;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += bytes.length;
    if (total > maxBytes) return tooLarge;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

/** The issues of a body that is JSON but not the request's shape: paths and zod's sentences, which quote no value. */
function shapeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length === 0 ? 'body' : issue.path.join('.')}: ${issue.message}`).join('; ');
}

export async function readMigrateRequest(request: IncomingMessage, maxBytes: number): Promise<MigrateRequest | BodyRefusal> {
  const typeRefusal = contentTypeRefusal(request);
  if (typeRefusal !== undefined) return typeRefusal;
  const body = await readBounded(request, maxBytes);
  if (!Buffer.isBuffer(body)) return body;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return { status: 400, refusal: { code: 'bodyNotUtf8', error: 'the body is not valid UTF-8' } };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text around the fault, which may be the password.
    return { status: 400, refusal: { code: 'bodyNotJson', error: `the body is not JSON: ${SHAPE}` } };
  }
  const parsed = MigrateRequestSchema.safeParse(json);
  if (!parsed.success) return { status: 400, refusal: { code: 'bodyShapeInvalid', error: `${SHAPE} (${shapeIssues(parsed.error)})` } };
  return { email: parsed.data.email, password: new Secret(parsed.data.password), clientAddress: parsed.data.clientAddress };
}

export function isBodyRefusal(value: MigrateRequest | BodyRefusal): value is BodyRefusal {
  return 'status' in value;
}
