import { hash } from 'node:crypto';
import type { RecordLocation } from '../location.js';
import { decimalText } from './decimal-text.js';

/**
 * A short, stable name of a record's place in its source: `L7`, `I42`, `+L7` for a record of the companion file
 * (an Auth0 password-hash file), `P2I7` for one of the third file of an export read as several (a Keycloak folder),
 * and `R<digest>` for a database row, by its id. Never the file's name: a renamed export keeps its journal (the
 * journal's header names the content by its fingerprint instead).
 */
export function recordKey(location: RecordLocation, sourceFile?: string): string {
  // A database row is keyed by its id (64 bits of its digest: short, and the same in every read), not by its place.
  if (location.id !== undefined) return `R${hash('sha256', location.id, 'base64url').slice(0, 11)}`;
  const where = location.line !== undefined ? `L${decimalText(location.line)}` : `I${decimalText(location.index ?? 0)}`;
  if (location.part !== undefined) return `P${decimalText(location.part)}${where}`;
  return sourceFile !== undefined && location.file !== sourceFile ? `+${where}` : where;
}

export function recordPosition(location: RecordLocation): number {
  return location.line ?? location.index ?? 0;
}
