import { describe, expect, it } from 'vitest';
import { envNumber } from '../../lib/config/env-number.ts';

describe('envNumber: the one reader of numeric settings', () => {
  it('reads a number written as text', () => {
    expect(envNumber('45', 1)).toBe(45);
    expect(envNumber('2.5', 1)).toBe(2.5);
    expect(envNumber(30, 1)).toBe(30);
  });

  it('falls back on a missing, empty, non-numeric or non-finite setting', () => {
    for (const value of [undefined, null, '', '  x', 'ten', 'Infinity', 'NaN', true]) expect(envNumber(value, 7)).toBe(7);
  });

  it('takes only numbers above zero unless a minimum is given', () => {
    expect(envNumber('0', 7)).toBe(7);
    expect(envNumber('-3', 7)).toBe(7);
    expect(envNumber('0', 7, { min: 0 })).toBe(0);
    expect(envNumber('0.5', 7, { min: 1 })).toBe(7);
    expect(envNumber('1', 7, { min: 1 })).toBe(1);
  });

  it('rounds down when an integer is asked for', () => {
    expect(envNumber('12.9', 7, { integer: true })).toBe(12);
  });

  it('falls back when an integer setting rounds down below its minimum', () => {
    expect(envNumber('0.5', 7, { integer: true })).toBe(7);
    expect(envNumber('1.5', 7, { min: 2, integer: true })).toBe(7);
    expect(envNumber('2.5', 7, { min: 2, integer: true })).toBe(2);
  });
});
