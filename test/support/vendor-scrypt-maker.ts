import { createCipheriv } from 'node:crypto';
import { scrypt } from 'hash-wasm';

/**
 * Makes a vendor scrypt hash with an independent scrypt (hash-wasm, WebAssembly) so the module under test is
 * checked against another implementation, at parameters small enough to keep the suite fast.
 */
export async function makeVendorScryptHash(input: {
  /** Text is hashed as UTF-8; the core double passes the ASCII bytes a core of this kind reads. */
  password: string | Uint8Array;
  salt: Buffer;
  saltSeparator: Buffer;
  signerKey: Buffer;
  memCost: number;
  rounds: number;
}): Promise<string> {
  const key = await scrypt({
    password: input.password,
    salt: Buffer.concat([input.salt, input.saltSeparator]),
    costFactor: 2 ** input.memCost,
    blockSize: input.rounds,
    parallelism: 1,
    hashLength: 64,
    outputType: 'binary',
  });
  const cipher = createCipheriv('aes-256-ctr', key.subarray(0, 32), Buffer.alloc(16));
  return Buffer.concat([cipher.update(input.signerKey), cipher.final()]).toString('base64');
}
