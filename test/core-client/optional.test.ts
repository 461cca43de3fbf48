import { describe, expect, it } from 'vitest';
import { optional, optionalFrom } from '../../core-client/src/optional.js';

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

describe('optionalFrom', () => {
  it('makes the property from a value that is there, even a falsy one', () => {
    expect({ ...optionalFrom('whole', 'ff', (hex) => Number.parseInt(hex, 16)), ...optionalFrom('ms', 0, (seconds) => seconds * 1000) }).toEqual({
      whole: 255,
      ms: 0,
    });
  });

  it('leaves the property out and never calls make when there is no value', () => {
    const made: number[] = [];
    const spread = {
      kept: 1,
      ...optionalFrom('ms', undefined, (seconds: number) => {
        made.push(seconds);
        return seconds * 1000;
      }),
    };
    expect(Object.keys(spread)).toEqual(['kept']);
    expect(made).toEqual([]);
  });
});
