import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VENDOR_SCRYPT_VECTOR, bcryptHashOf, vendorScryptHashString } from './known-hashes.js';
import { startCoreDouble, type CoreDouble } from './index.js';
import {
  type Ids,
  SCRYPT_NAME_EXCHANGES,
  ScryptNamesSchema,
  type Transcript,
  TranscriptSchema,
  callCore,
  coreExchanges,
  exchange,
  seen,
} from '../support/core-exchanges.js';

/**
 * The double is held to what a real core 10.0.7 answered (test/fixtures/core-transcripts/, copied from
 * ../shared/spec/core-transcripts/): every exchange, in order, must get the recorded answer. When they differ, the
 * double is wrong. An exchange the recording lacks fails by name: a new call is recorded before it is trusted.
 */
const API_KEY = 'recorded-answers-key-0123456789';
const transcript = (name: string): Transcript =>
  TranscriptSchema.parse(JSON.parse(readFileSync(new URL(`../fixtures/core-transcripts/${name}.json`, import.meta.url), 'utf8')));

const hashes = {
  bcrypt: await bcryptHashOf('ann password'),
  otherBcrypt: await bcryptHashOf('another password'),
  scrypt: { hash: vendorScryptHashString(), password: VENDOR_SCRYPT_VECTOR.password },
};

/** The steps that differ from the recording, each named with both answers; a step with no recording names itself. */
function differences(recorded: Transcript, answered: Transcript): string[] {
  const found: string[] = [];
  for (const [index, step] of answered.entries()) {
    const expected = recorded[index];
    if (expected === undefined || expected.name !== step.name || expected.method !== step.method) {
      found.push(`step ${index + 1} "${step.name}" (${step.method}) has no recorded answer: record it against a real core (npm run record:core-transcripts)`);
      continue;
    }
    if (!isDeepEqual(expected.answer, step.answer)) {
      found.push(`${step.name}:\n  recorded ${JSON.stringify(expected.answer)}\n  double   ${JSON.stringify(step.answer)}`);
    }
  }
  if (recorded.length > answered.length) found.push(`the recording has ${recorded.length - answered.length} step(s) no exchange makes any more`);
  return found;
}

function isDeepEqual(left: unknown, right: unknown): boolean {
  try {
    expect(left).toEqual(right);
    return true;
  } catch {
    return false;
  }
}

describe.each(['memory', 'postgresql'])('the core double answers as a real core did (%s storage)', (storage) => {
  let double: CoreDouble;
  beforeAll(async () => {
    double = await startCoreDouble({ apiKeys: [API_KEY], signerKey: VENDOR_SCRYPT_VECTOR.signerKey });
  });
  afterAll(() => double?.close());

  it('every exchange of a migration, and its refusals, gets the recorded answer', async () => {
    const ids: Ids = new Map();
    const answered: Transcript = [];
    for (const step of coreExchanges(hashes))
      answered.push({ name: step.name, method: step.method, answer: seen(await exchange(double.url, API_KEY, step, ids)) });
    expect(differences(transcript(storage), answered).join('\n')).toBe('');
  });
});

describe('the scrypt variant under the name a core in the field takes (firebase_scrypt)', () => {
  const recorded = ScryptNamesSchema.parse(JSON.parse(readFileSync(new URL('../fixtures/core-transcripts/scrypt-names.json', import.meta.url), 'utf8')));
  const recordedAnswer = (name: string) => recorded.exchanges.find((step) => step.name === name);
  let double: CoreDouble;
  beforeAll(async () => {
    double = await startCoreDouble({ apiKeys: [API_KEY], signerKey: VENDOR_SCRYPT_VECTOR.signerKey, scryptAlgorithmName: 'firebase_scrypt' });
  });
  afterAll(() => double?.close());

  it.each(SCRYPT_NAME_EXCHANGES.map((step) => [step.name, step] as const))('%s', async (name, step) => {
    const expected = recordedAnswer(name);
    if (expected === undefined) throw new Error(`"${name}" has no recorded answer: record it against a real core (npm run record:core-transcripts)`);
    expect(expected.body).toEqual(step.body);
    expect(seen(await callCore(double.url, 'POST', expected.path, step.body, API_KEY))).toEqual(expected.answer);
  });
});
