import { describe, expect, it } from 'vitest';
import {
  AuthRejected,
  ContractViolation,
  RecordRejected,
  SignerKeyMissing,
  TenantNotFound,
  Transient,
  Unexpected,
} from '../../../core-client/src/http/errors.js';
import { endOfError, endOfImport, endOfSignInUp } from '../../../core-client/src/push/outcome.js';

describe('how an operation ends', () => {
  it('imported and created are done; an existing user is done with a note that says what the core changed', () => {
    expect(endOfImport({ outcome: 'imported', userId: 'u' })).toEqual({ kind: 'done', outcome: 'imported', journal: 'imported' });
    expect(endOfImport({ outcome: 'alreadyExisted', userId: 'u' })).toMatchObject({ outcome: 'alreadyExisted', note: expect.stringMatching(/REPLACED/) });
    expect(endOfSignInUp({ outcome: 'created', userId: 'u' })).toMatchObject({ kind: 'done', outcome: 'thirdPartyCreated' });
    expect(endOfSignInUp({ outcome: 'existing', userId: 'u' })).toMatchObject({ outcome: 'thirdPartyExisting', note: expect.stringMatching(/updated/) });
  });

  it('a non-OK status and a 400 are final refusals carrying the core text', () => {
    expect(endOfSignInUp({ outcome: 'nonOkStatus', status: 'EMAIL_CHANGE_NOT_ALLOWED_ERROR', reason: 'email taken' })).toEqual({
      kind: 'refused',
      code: 'EMAIL_CHANGE_NOT_ALLOWED_ERROR',
      reason: 'the core answered EMAIL_CHANGE_NOT_ALLOWED_ERROR: email taken',
    });
    const rejected = endOfError(
      new RecordRejected('The core rejected the record: Password hash is in invalid format.', 'Password hash is in invalid format'),
      1,
    );
    expect(rejected).toMatchObject({ kind: 'refused', reason: expect.stringContaining('Password hash is in invalid format') });
  });

  it('transient failures after every retry and unreadable answers fail without being final', () => {
    expect(endOfError(new Transient('The core had a server error (500).', 'serverError', undefined, { status: 500 }), 8)).toMatchObject({
      kind: 'failed',
      code: 'transient',
      reason: expect.stringMatching(/after 8 attempts.*resume retries it/s),
    });
    expect(endOfError(new ContractViolation('unexpected body'), 1)).toMatchObject({ kind: 'failed', code: 'contractViolation' });
    expect(endOfError(new Error('boom'), 1)).toMatchObject({ kind: 'failed', code: 'clientError' });
  });

  it('a refused key or a missing tenant stops everything at once; a missing signer key or a 403 stops sending', () => {
    expect(endOfError(new AuthRejected('The core refused the api-key.'), 1)).toMatchObject({ kind: 'stop', reason: 'authRejected', hard: true });
    expect(endOfError(new TenantNotFound('no tenant', 't', 'a', 'AppId or tenantId not found'), 1)).toMatchObject({
      kind: 'stop',
      reason: 'tenantNotFound',
      hard: true,
    });
    expect(endOfError(new SignerKeyMissing('set VENDOR_PASSWORD_HASHING_SIGNER_KEY'), 1)).toMatchObject({
      kind: 'stop',
      reason: 'signerKeyMissing',
      hard: false,
    });
    expect(endOfError(new Unexpected('403 recipe disabled', 'Email password login not enabled for tenant'), 1)).toMatchObject({
      kind: 'stop',
      reason: 'coreRefused',
      record: { code: 'unexpected' },
    });
  });
});
