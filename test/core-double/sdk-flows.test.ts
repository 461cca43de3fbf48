import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoreDouble, type CoreDouble } from './index.js';
import {
  API_KEY_PLACEHOLDER,
  type RecordedAnswer,
  type RecordedExchange,
  RecordedPairing,
  SDK_STORAGES,
  comparable,
  loadSdkFlows,
} from '../support/sdk-flows.js';

/**
 * The double is held to what a real core 10.0.7 answered the official Node SDK (test/fixtures/core-transcripts/
 * sdk-flows.json): every recorded exchange, in order, is sent to a double of the same storage as the SDK sent it (its
 * headers, the recorded body with the recorded core's ids, handles and tokens replaced by the double's), and the
 * double's answer must be the recorded one: its status, kind and body, the values a core makes paired with the
 * recording's (so a token the real core gave again must come again), tokens of the same form (a JWT's header fields,
 * key, claims and length; a refresh or reset token's length and characters), times by what they mean. Where they differ,
 * the double is wrong.
 */
const API_KEY = 'sdk-flows-api-key-0123456789';
const flows = loadSdkFlows();

async function send(double: CoreDouble, exchange: RecordedExchange, pairing: RecordedPairing): Promise<RecordedAnswer> {
  const url = new URL(exchange.path, double.url);
  for (const [name, value] of Object.entries(exchange.query ?? {})) url.searchParams.set(name, String(pairing.toActual(value)));
  const headers: Record<string, string> = {};
  if (exchange.apiKey === API_KEY_PLACEHOLDER) headers['api-key'] = API_KEY;
  if (exchange.cdiVersion !== null) headers['cdi-version'] = exchange.cdiVersion;
  if (exchange.rid !== undefined) headers['rid'] = exchange.rid;
  const hasBody = exchange.method !== 'GET';
  if (hasBody) headers['content-type'] = 'application/json; charset=utf-8';
  const response = await fetch(url, { method: exchange.method, headers, ...(hasBody ? { body: JSON.stringify(pairing.toActual(exchange.body)) } : {}) });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
  const cacheControl = response.headers.get('cache-control');
  return {
    status: response.status,
    kind: isJson ? 'json' : 'text',
    body: isJson ? (JSON.parse(text) as unknown) : text,
    ...(cacheControl === null ? {} : { cacheControl }),
  };
}

describe.each(SDK_STORAGES)('the core double answers the official Node SDK as a real core did (%s storage)', (storage) => {
  let double: CoreDouble;
  beforeAll(async () => {
    double = await startCoreDouble({ apiKeys: [API_KEY], storage });
  });
  afterAll(() => double?.close());

  it(`every exchange of the nine flows (${flows.storages[storage].length}) gets the recorded answer`, async () => {
    const pairing = new RecordedPairing();
    const differences: string[] = [];
    for (const [index, exchange] of flows.storages[storage].entries()) {
      const answer = await send(double, exchange, pairing);
      pairing.learn(exchange.answer, answer);
      const [recorded, answered] = [comparable(exchange.answer), comparable(pairing.toRecorded(answer))];
      if (!isDeepEqual(recorded, answered)) {
        differences.push(
          `${index + 1}. ${exchange.flow} / ${exchange.step}: ${exchange.method} ${exchange.path}\n  recorded ${JSON.stringify(recorded)}\n  double   ${JSON.stringify(answered)}`,
        );
      }
    }
    expect(differences.join('\n')).toBe('');
  });
});

function isDeepEqual(left: unknown, right: unknown): boolean {
  try {
    expect(right).toEqual(left);
    return true;
  } catch {
    return false;
  }
}
