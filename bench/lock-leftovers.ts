import { Pool } from 'undici';
import { CoreHeaders, CorePaths, REQUEST_CONTENT_TYPE } from '../core-client/src/contract/names.js';
import { PasswordlessCodeAnswerSchema } from '../core-client/src/contract/responses.js';
import { bcryptHash } from './raw-load.js';
import { REAL_CORE_API_KEY, startRealCore, stopRealCore } from './real-core.js';

/** Requests at once: enough for a real in-memory core to lose the lock on a good share of the writes. */
const IN_FLIGHT = 16;

interface Answer {
  status: number;
  text: string;
}

/**
 * What a write that lost the store's lock (500, "database table is locked") left behind on a real in-memory core,
 * which says whether the push may treat it as never carried out: imports and code requests sent once each, 16 at a
 * time, then every one that answered 500 looked up (the user by email; the login's codes); then codes consumed the
 * same way, and for each consume that answered 500 whether its user exists and its code is still there.
 */
export async function benchLockLeftovers(options: { users?: number } = {}): Promise<void> {
  const users = options.users ?? 2_000;
  const url = await startRealCore({ postgresql: false });
  const pool = new Pool(url, { connections: IN_FLIGHT });
  const headers = { [CoreHeaders.apiKey]: REAL_CORE_API_KEY, [CoreHeaders.contentType]: REQUEST_CONTENT_TYPE };
  const send = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> => {
    const response = await pool.request({ method, path, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.statusCode, text: await response.body.text() };
  };
  /** Sends `count` requests, IN_FLIGHT at a time, once each; answers the indexes of those that answered 500. */
  const lostOnce = async (count: number, request: (index: number) => Promise<Answer>): Promise<number[]> => {
    const lost: number[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let index = next++; index < count; index = next++) if ((await request(index)).status === 500) lost.push(index);
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    return lost;
  };
  const email = (index: number): string => `leftover${index}@example.com`;
  const phone = (batch: number, index: number): string => `+9${batch}00${String(index).padStart(7, '0')}`;
  const hasCode = async (phoneNumber: string): Promise<boolean> =>
    (await send('GET', `${CorePaths.passwordlessCode}s?phoneNumber=${encodeURIComponent(phoneNumber)}`)).text.includes('"codes":[{');
  const hasUser = async (phoneNumber: string): Promise<boolean> =>
    (await send('GET', `${CorePaths.usersByAccountInfo}?phoneNumber=${encodeURIComponent(phoneNumber)}&doUnionOfAccountInfo=true`)).text.includes('"id"');
  const rows: Record<string, string | number>[] = [];
  try {
    const lostImports = await lostOnce(users, (index) => send('POST', CorePaths.passwordHashImport, { email: email(index), passwordHash: bcryptHash(index) }));
    let importedAnyway = 0;
    for (const index of lostImports)
      if ((await send('GET', `${CorePaths.userByEmail}?email=${encodeURIComponent(email(index))}`)).text.includes('"OK"')) importedAnyway += 1;
    rows.push({ call: 'import', sent: users, 'lost the lock': lostImports.length, 'carried out anyway': importedAnyway });

    const lostCodes = await lostOnce(users, (index) => send('POST', CorePaths.passwordlessCode, { phoneNumber: phone(1, index) }));
    let codesAnyway = 0;
    for (const index of lostCodes) if (await hasCode(phone(1, index))) codesAnyway += 1;
    rows.push({ call: 'code request', sent: users, 'lost the lock': lostCodes.length, 'carried out anyway': codesAnyway });

    const codes: { preAuthSessionId: string; linkCode: string }[] = [];
    for (let index = 0; index < users; index += 1) {
      for (;;) {
        const made = await send('POST', CorePaths.passwordlessCode, { phoneNumber: phone(2, index) });
        if (made.status !== 200) continue;
        const { preAuthSessionId, linkCode } = PasswordlessCodeAnswerSchema.parse(JSON.parse(made.text));
        codes.push({ preAuthSessionId, linkCode });
        break;
      }
    }
    const lostConsumes = await lostOnce(users, (index) => send('POST', CorePaths.passwordlessConsume, codes[index]));
    let createdAnyway = 0;
    let codeUsedUp = 0;
    for (const index of lostConsumes) {
      if (await hasUser(phone(2, index))) createdAnyway += 1;
      if (!(await hasCode(phone(2, index)))) codeUsedUp += 1;
    }
    rows.push({
      call: 'consume',
      sent: users,
      'lost the lock': lostConsumes.length,
      'carried out anyway': `${createdAnyway} users created, ${codeUsedUp} codes used up`,
    });
  } finally {
    await pool.close();
    await stopRealCore({ postgresql: false });
  }
  console.log(`\nlock-leftovers: what a write that lost the lock left on a real in-memory core (${IN_FLIGHT} in flight, each sent once)`);
  console.table(rows);
}
