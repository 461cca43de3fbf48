import { describe, expect, it } from 'vitest';
import { inspectLegacyHash, verifyLegacyPassword } from '../../../../core-client/src/hashes/legacy/verify-legacy.js';
import { Secret } from '../../../../core-client/src/secret.js';

describe('inspectLegacyHash says the parameters and the cost, never the salt or the key', () => {
  it.each([
    [
      '$pbkdf2-sha512$1000$/Z8zZuw9h9D6vxfiXOtdyw$U1zs1d95/KvITKqIcDqxGJOGC1qL1yycZvC70HbWgy936IkIHy/UxNCWYPkh6cWzSi3bdUmTkhBcKu6mmOGFkw',
      'PBKDF2-HMAC-SHA-512, 1,000 iterations, 16-byte salt',
    ],
    ['$bcrypt-sha256$v=2,t=2b,r=4$.qUEAU5vbuxIRY0ePP1P6.$WTJ7VieZBGLtFXP2HOsEiYJXp1Kpjdq', "bcrypt cost 4 (2^4 rounds) of the password's SHA-256"],
    ['$scrypt$ln=10,r=8,p=1$em/tnRPi/B+j9F6rVYrRWg$nno2rFjBx9qosK8JVEYCrNcl4Zpo1bLU9rc5sB9i15I', 'scrypt N = 1,024, r = 8, p = 1 (1 MiB)'],
    ['$P$6URfanRs/0W4tp6jaAr1zhrECCKHMJ.', '2^8 (256) MD5 iterations'],
    ['$1$deadbeef$0Huu6KHrKLVWfqa4WljDE0', '1,000 MD5 rounds (fixed), 8-character salt'],
    ['$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1', '5,000 SHA-512 rounds, 10-character salt'],
    ['{SSHA}UMBcMRA7bgmUXX9/TSUlV8gB8YMZQyiF', 'one SHA-1, 4-byte salt'],
    ['{MD5}nMKuihunqT2jm0b8EBnEgQ==', 'one MD5, no salt'],
    ['{sha256}97cde38028ad898ebc02e690819fa220e88c62e0699403e94fff291cfffaf8410849f27605abcbc0', '1,024 SHA-256 iterations, 8-byte salt'],
    ['AQAAAAEAACcQAAAAEAABAgMEBQYHCAkKCwwNDg+yWU7rLgUwPZb1Itsmra7cbxw2EFpwpVFIEtP+JIuUEw==', 'PBKDF2-HMAC-SHA-256, 10,000 iterations, 16-byte salt'],
  ])('%s', (hash, parameters) => {
    expect(inspectLegacyHash(hash)).toMatchObject({ usable: true, parameters });
  });
});

describe('verifyLegacyPassword stops at an abort', () => {
  const hash = 'pbkdf2_sha256$1000$AHtAC50miIADqqW9ds3CGR$gYVfqq3P6DBMit3+6bOnPCaLFC40md06yokDa7FivcU=';
  const password = new Secret('correct horse battery staple');

  it('rejects with the reason of a signal aborted before it starts', async () => {
    const stop = new AbortController();
    stop.abort(new Error('interrupted'));
    await expect(verifyLegacyPassword(password, hash, { signal: stop.signal })).rejects.toThrow('interrupted');
  });

  it('rejects with the reason of an abort while it runs, and answers as before without one', async () => {
    const stop = new AbortController();
    const checking = verifyLegacyPassword(password, hash, { signal: stop.signal });
    stop.abort(new Error('interrupted'));
    await expect(checking).rejects.toThrow('interrupted');
    await expect(verifyLegacyPassword(password, hash)).resolves.toEqual({ outcome: 'match', family: 'django_pbkdf2_sha256' });
  });
});
