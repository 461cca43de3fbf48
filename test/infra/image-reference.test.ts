import { describe, expect, it } from 'vitest';
import { formatImageReference, isPinned, parseImageReference } from '../../infra/image-reference.js';

const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;

describe('parseImageReference', () => {
  it.each([
    ['auth-core', { repository: 'auth-core' }],
    ['registry.example:5000/auth-core', { repository: 'registry.example:5000/auth-core' }],
    ['registry.example:5000/team/auth-core:9.3', { repository: 'registry.example:5000/team/auth-core', tag: '9.3' }],
    [`auth-core@${DIGEST}`, { repository: 'auth-core', digest: DIGEST }],
    [`localhost:5000/auth-core:9.3@${DIGEST}`, { repository: 'localhost:5000/auth-core', tag: '9.3', digest: DIGEST }],
  ])('reads %s', (text, reference) => {
    expect(parseImageReference(text)).toEqual(reference);
    expect(formatImageReference(reference)).toBe(text);
  });

  it('tells a malformed reference from a malformed digest', () => {
    expect(parseImageReference('auth core')).toBe('notAReference');
    expect(parseImageReference('auth-core@sha256:abc')).toBe('badDigest');
  });

  it('calls only a reference with a digest pinned', () => {
    expect(isPinned({ repository: 'auth-core', tag: '9.3' })).toBe(false);
    expect(isPinned({ repository: 'auth-core', tag: '9.3', digest: DIGEST })).toBe(true);
  });
});
