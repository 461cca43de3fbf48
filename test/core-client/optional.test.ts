import { describe, expect, it } from 'vitest';
import { optional } from '../../core-client/src/optional.js';

describe('optional', () => {
  it('gives the property when there is a value, even a falsy one', () => {
    expect({ ...optional('count', 0), ...optional('name', ''), ...optional('on', false), ...optional('none', null) }).toEqual({
      count: 0,
      name: '',
      on: false,
      none: null,
    });
  });

  it('leaves the property out, not undefined, when there is no value', () => {
    const spread = { kept: 1, ...optional('path', undefined) };
    expect(Object.keys(spread)).toEqual(['kept']);
    expect('path' in spread).toBe(false);
  });
});
