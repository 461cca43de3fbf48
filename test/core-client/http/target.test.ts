import { describe, expect, it } from 'vitest';
import { CoreClientConfigError, RESERVED_TENANT_IDS, describeTarget, resolveCoreTarget } from '../../../core-client/src/http/target.js';

const base = 'http://127.0.0.1:3567';

describe('resolveCoreTarget', () => {
  it('needs no prefix for the default tenant and app', () => {
    const target = resolveCoreTarget({ baseUrl: `${base}/` });
    expect(target).toMatchObject({ origin: base, basePath: '', recipePrefix: '', tenantId: 'public', appId: 'public' });
    expect(describeTarget(target)).toBe('http://127.0.0.1:3567 (tenant public)');
  });

  it('puts a tenant, or an app and its tenant, in front of recipe paths', () => {
    expect(resolveCoreTarget({ baseUrl: base, tenantId: 'acme' }).recipePrefix).toBe('/acme');
    expect(resolveCoreTarget({ baseUrl: base, appId: 'shop' }).recipePrefix).toBe('/appid-shop/public');
    expect(resolveCoreTarget({ baseUrl: base, appId: 'shop', tenantId: 'acme' }).recipePrefix).toBe('/appid-shop/acme');
    expect(describeTarget(resolveCoreTarget({ baseUrl: base, appId: 'shop', tenantId: 'acme' }))).toBe('http://127.0.0.1:3567 (app shop, tenant acme)');
  });

  it("keeps the base URL's own path prefix", () => {
    expect(resolveCoreTarget({ baseUrl: 'https://auth.example.com/core/v1/' })).toMatchObject({
      origin: 'https://auth.example.com',
      basePath: '/core/v1',
    });
  });

  it.each([
    ['not a url', /not a URL/],
    ['ftp://127.0.0.1', /http:\/\/ or https:\/\//],
    ['http://user:pw@127.0.0.1', /user name or password/],
    ['http://127.0.0.1/?x=1', /query/],
  ])('refuses the base URL %s with a sentence', (baseUrl, message) => {
    expect(() => resolveCoreTarget({ baseUrl })).toThrow(CoreClientConfigError);
    expect(() => resolveCoreTarget({ baseUrl })).toThrow(message);
  });

  it.each(['Acme', 'acme_corp', '', 'a'.repeat(65), 'appid-x', ...RESERVED_TENANT_IDS])('refuses the tenant id "%s"', (tenantId) => {
    expect(() => resolveCoreTarget({ baseUrl: base, tenantId })).toThrow(CoreClientConfigError);
  });

  it('refuses an app id outside [a-z0-9-]', () => {
    expect(() => resolveCoreTarget({ baseUrl: base, appId: 'Shop!' })).toThrow(/app id "Shop!" cannot be used/);
  });
});
