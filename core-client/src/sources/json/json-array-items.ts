import { SourceError } from '../source-error.js';
import { JsonArrayScanner, JsonScanError, type JsonArrayScannerOptions, type ScannedElement } from './json-array-scanner.js';
import { TOO_DEEP_REASON } from './json-depth.js';
import { optional } from '../../optional.js';

/** One element of the streamed array, with its position in the array, or why it cannot be handed on. */
export type JsonArrayItem = { readonly index: number; readonly value: unknown } | { readonly index: number; readonly problem: string };

export type JsonArrayShape = JsonArrayScannerOptions;

function withLastIndex(detail: string, lastIndex: number | undefined): string {
  return `${detail}; ${lastIndex === undefined ? 'no element was read before it' : `the last element read is #${lastIndex}`}`;
}

function sourceErrorOf(file: string, error: JsonScanError, lastIndex: number | undefined): SourceError {
  const location = { file, ...optional('index', error.index), ...error.position };
  switch (error.kind) {
    case 'not-json': {
      const line = error.position?.line ?? 1;
      const byte = error.position?.byteOffset ?? 0;
      return new SourceError('not-json', location, withLastIndex(`not valid JSON in line ${line} (byte ${byte}): ${error.detail}`, lastIndex));
    }
    case 'truncated':
      return new SourceError('truncated', location, withLastIndex(error.detail, lastIndex));
    default:
      return new SourceError(error.kind, location, error.detail);
  }
}

/**
 * The file is one JSON object without the array's key at its top level (the scanner's only whole-file error with no
 * place): a Keycloak realm file whose users were exported to files of their own, for one.
 */
export function isMissingArrayKey(error: unknown): error is SourceError {
  return error instanceof SourceError && error.reason === 'wrong-format' && error.location.line === undefined && error.location.index === undefined;
}

function itemOf(file: string, element: ScannedElement): JsonArrayItem {
  if ('tooDeep' in element) {
    return { index: element.index, problem: TOO_DEEP_REASON };
  }
  try {
    return { index: element.index, value: JSON.parse(element.text) as unknown };
  } catch (error) {
    // The scanner has checked the text already: this would be a disagreement between it and JSON.parse.
    throw new SourceError('not-json', { file, index: element.index }, `element #${element.index} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Streams the elements of a JSON array (the whole file, or the array under one top-level key) without holding the
 * file: the scanner finds each element's text in one pass and JSON.parse builds it. Every element before a broken
 * place is yielded, then the error is thrown with the line and byte of that place.
 */
export async function* readJsonArrayItems(file: string, text: AsyncIterable<string>, shape: JsonArrayShape): AsyncGenerator<JsonArrayItem> {
  const scanner = new JsonArrayScanner(shape);
  let lastIndex: number | undefined;
  for await (const chunk of text) {
    let failure: JsonScanError | undefined;
    try {
      scanner.scan(chunk);
    } catch (error) {
      if (!(error instanceof JsonScanError)) throw error;
      failure = error;
    }
    for (const element of scanner.take()) {
      lastIndex = element.index;
      yield itemOf(file, element);
    }
    if (failure !== undefined) throw sourceErrorOf(file, failure, lastIndex);
  }
  try {
    scanner.end();
  } catch (error) {
    if (error instanceof JsonScanError) throw sourceErrorOf(file, error, lastIndex);
    throw error;
  }
}
