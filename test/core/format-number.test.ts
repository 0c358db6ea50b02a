import { describe, expect, it } from 'vitest';
import { formatInterval, formatNumber } from '../../src/core/index.ts';

// Expected strings written by hand from the rule (4 significant digits, trailing zeros
// dropped, integers whole), which is how R prints with print(x, digits = 4).
describe('formatNumber', () => {
  it('rounds floating-point noise to 4 significant digits', () => {
    expect(formatNumber(-0.01679999999999998)).toBe('-0.0168');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(0.133151)).toBe('0.1332');
    expect(formatNumber(877.6666666666666)).toBe('877.7');
    expect(formatNumber(-0.004168)).toBe('-0.004168');
    expect(formatNumber(0.56116666)).toBe('0.5612');
  });

  it('shows integers and large integer parts whole', () => {
    expect(formatNumber(2000)).toBe('2000');
    expect(formatNumber(123456)).toBe('123456');
    expect(formatNumber(1122.3333)).toBe('1122');
    expect(formatNumber(12345.6)).toBe('12346');
    expect(formatNumber(9999.7)).toBe('10000');
    expect(formatNumber(-48)).toBe('-48');
  });

  it('drops trailing zeros', () => {
    expect(formatNumber(0.5)).toBe('0.5');
    expect(formatNumber(0.99996)).toBe('1');
    expect(formatNumber(1.20001)).toBe('1.2');
  });

  it('uses scientific notation for the very small and very large', () => {
    expect(formatNumber(1.23456e-5)).toBe('1.235e-5');
    expect(formatNumber(-2e-7)).toBe('-2e-7');
    expect(formatNumber(3.2e21)).toBe('3.2e+21');
    expect(formatNumber(1e-4)).toBe('0.0001');
  });

  it('names zero, NaN and the infinities', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(Number.NaN)).toBe('NaN');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('Inf');
    expect(formatNumber(Number.NEGATIVE_INFINITY)).toBe('-Inf');
  });

  it('takes other digit counts, and formats intervals', () => {
    expect(formatNumber(Math.PI, 2)).toBe('3.1');
    expect(formatNumber(Math.PI, 6)).toBe('3.14159');
    expect(formatInterval(-0.02298000001, -0.004168)).toBe('[-0.02298, -0.004168]');
  });
});
