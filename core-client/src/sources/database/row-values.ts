import { isoTimeOfEpochMs } from '../firebase/epoch-time.js';
import { MAX_RECORD_DEPTH, nestsDeeperThan } from '../json/json-depth.js';

/**
 * A row's values as a database driver or an export of its rows gives them: PostgreSQL through `pg` (Date, boolean,
 * parsed JSON), SQLite (text, integers), `COPY … CSV` (text: `t`/`f`, JSON as text, NULL as an empty field) and a SQL
 * editor's JSON (strings, booleans, objects). Each reader takes any of these and says what is wrong with the rest.
 */

/** A field that cannot be read: the row becomes a malformed record naming it. */
export class RowFieldProblem extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`field "${field}": ${reason}`);
  }
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Text, or undefined for NULL and the empty text (a CSV's NULL). */
export function textOf(row: Readonly<Record<string, unknown>>, field: string): string | undefined {
  const value = row[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  throw new RowFieldProblem(field, `must be text, not ${typeName(value)}`);
}

const TRUE_TEXTS = new Set(['t', 'true', '1']);
const FALSE_TEXTS = new Set(['f', 'false', '0']);

/** A boolean: PostgreSQL's own, SQLite's 0/1, or their text (`t`/`f`, `true`/`false`, `1`/`0`). NULL is undefined. */
export function booleanOf(row: Readonly<Record<string, unknown>>, field: string): boolean | undefined {
  const value = row[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1 || value === 0n || value === 1n) return Number(value) === 1;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (TRUE_TEXTS.has(text)) return true;
    if (FALSE_TEXTS.has(text)) return false;
  }
  throw new RowFieldProblem(field, 'must be true or false');
}

/** `2024-01-02 03:04:05.123456+00` (PostgreSQL's text), ISO 8601 with `T`, with or without an offset (then UTC). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function isoOfText(text: string): string | undefined {
  const match = TIMESTAMP.exec(text.trim());
  if (match === null) return undefined;
  const [, day, time = '', fraction = '', zone = 'Z'] = match;
  const offset = /^[+-]\d{2}$/.test(zone) ? `${zone}:00` : /^[+-]\d{4}$/.test(zone) ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone.toUpperCase();
  const seconds = time.length === 5 ? `${time}:00` : time;
  const ms = Date.parse(`${day}T${seconds}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(ms) ? undefined : isoTimeOfEpochMs(ms);
}

/** Epoch numbers this large are milliseconds (after 1973 in ms; seconds would be after the year 5000). */
const MILLISECONDS_FROM = 1e11;

/** A time as ISO 8601 in UTC: a Date, a timestamp's text, or a number since the epoch (seconds or milliseconds). */
export function timeOf(row: Readonly<Record<string, unknown>>, field: string): string | undefined {
  const value = row[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (value instanceof Date) {
    const iso = Number.isNaN(value.getTime()) ? undefined : isoTimeOfEpochMs(value.getTime());
    if (iso !== undefined) return iso;
  } else if (typeof value === 'string') {
    const iso = isoOfText(value);
    if (iso !== undefined) return iso;
  } else if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    const iso = isoTimeOfEpochMs(Math.round(value >= MILLISECONDS_FROM ? value : value * 1000));
    if (iso !== undefined) return iso;
  }
  throw new RowFieldProblem(field, 'is not a time (a timestamp such as 2024-01-02 03:04:05+00)');
}

function parsedJson(field: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (nestsDeeperThan(value, MAX_RECORD_DEPTH)) throw new RowFieldProblem(field, `nests deeper than ${MAX_RECORD_DEPTH} levels`);
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new RowFieldProblem(field, 'is not JSON');
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object (parsed by the driver, or its text); undefined for NULL, `null` and `{}`. */
export function jsonObjectOf(row: Readonly<Record<string, unknown>>, field: string): Record<string, unknown> | undefined {
  const value = row[field];
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = parsedJson(field, value);
  if (parsed === null) return undefined;
  if (!isPlainObject(parsed)) throw new RowFieldProblem(field, `must be a JSON object, not ${typeName(parsed)}`);
  return Object.keys(parsed).length === 0 ? undefined : parsed;
}

/** A JSON list (parsed, or its text); undefined for NULL and `null`. */
export function jsonListOf(row: Readonly<Record<string, unknown>>, field: string): unknown[] | undefined {
  const value = row[field];
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = parsedJson(field, value);
  if (parsed === null) return undefined;
  if (!Array.isArray(parsed)) throw new RowFieldProblem(field, `must be a JSON list, not ${typeName(parsed)}`);
  return parsed;
}

/** Text in an object read from JSON (`identity_data.sub`): a string, or a number as its text. */
export function textIn(object: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = object[key];
  if (typeof value === 'string') return value === '' ? undefined : value;
  return typeof value === 'number' ? String(value) : undefined;
}
