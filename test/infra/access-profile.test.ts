import { describe, expect, it } from 'vitest';
import { accessProfileConstructId, accessProfileKey } from '../../lib/access-profile.ts';

describe('access profiles', () => {
  it('keys equal access equally, whatever the property order', () => {
    expect(accessProfileKey({ mail: true, table: 'readwrite' })).toBe('table=readwrite,mail');
    expect(accessProfileKey({ table: 'readwrite', mail: true })).toBe('table=readwrite,mail');
    expect(accessProfileKey({ publicKeys: true, sign: true, table: 'read', mail: true })).toBe(
      'table=read,sign,publicKeys,mail',
    );
  });

  it('treats a false flag as no flag, as the grants do', () => {
    expect(accessProfileKey({ table: 'read', sign: false, mail: false })).toBe(
      accessProfileKey({ table: 'read' }),
    );
    expect(accessProfileKey({})).toBe('');
  });

  it('keeps read and readwrite apart', () => {
    expect(accessProfileKey({ table: 'read' })).not.toBe(accessProfileKey({ table: 'readwrite' }));
  });

  it('names the role construct after the profile', () => {
    expect(accessProfileConstructId('table=readwrite,sign')).toBe('TableReadwriteSign');
    expect(accessProfileConstructId('publicKeys')).toBe('PublicKeys');
    expect(accessProfileConstructId('')).toBe('NoAccess');
  });
});
