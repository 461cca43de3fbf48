import { CoreErrorTexts, ERROR_CONTENT_TYPE, SUCCESS_CONTENT_TYPE } from '../../core-client/src/contract/names.js';

/** What the double sends back (before any fault replaces it). */
export interface DoubleAnswer {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

export function jsonAnswer(value: unknown): DoubleAnswer {
  return { status: 200, contentType: SUCCESS_CONTENT_TYPE, body: JSON.stringify(value) };
}

/** Errors are plain text, labelled as HTML, ending with a newline — as a real core sends them. */
export function textAnswer(status: number, text: string): DoubleAnswer {
  return { status, contentType: ERROR_CONTENT_TYPE, body: `${text}\n` };
}

/** Thrown inside a handler to answer with an error at once. */
export class AnswerWith extends Error {
  constructor(readonly answer: DoubleAnswer) {
    super(answer.body.trim());
  }
}

export const fail = (status: number, text: string): never => {
  throw new AnswerWith(textAnswer(status, text));
};

export const fieldInvalid = (field: string): never => fail(400, CoreErrorTexts.fieldInvalid(field));

/** A required JSON string field, as the core checks it: missing, null or not a string all give the same 400. */
export function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  return typeof value === 'string' ? value : fieldInvalid(field);
}

export function requireBoolean(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  return typeof value === 'boolean' ? value : fieldInvalid(field);
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An optional JSON boolean field: absent or null is undefined, anything else but a boolean the core's 400. */
export function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'boolean' ? value : fieldInvalid(field);
}

/** An optional JSON string field: absent or null is undefined, anything else but a string the core's 400. */
export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : fieldInvalid(field);
}
