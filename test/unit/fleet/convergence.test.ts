// The decay's convergence minute (local/fleet/report/convergence.ts): the first minute from which the cost stays
// within 10% of the bound — a dip that does not last does not count, and a run that ends above never converged.
import { describe, expect, it } from 'vitest';
import { convergedMinute } from '../../../local/fleet/report/convergence.ts';
import type { FleetSample } from '../../../local/fleet/report/model.ts';

const run = (costs: readonly number[]): FleetSample[] =>
  costs.map((costPerHour, minute) => ({
    minute,
    costPerHour,
    lowerBoundPerHour: 0,
    nodesByCloud: {},
    nodesByPool: {},
    pending: 0,
    coverage: null,
    commandsInFlight: 0,
  }));

describe('convergedMinute', () => {
  it('is the first minute from which every later sample is within 10% of the bound', () => {
    expect(convergedMinute(run([30, 20, 12, 11, 10.5]), 10)).toBe(3);
  });
  it('ignores a dip that does not last', () => {
    expect(convergedMinute(run([30, 10.9, 12, 11.5, 10.9, 10]), 10)).toBe(4);
  });
  it('counts the boundary as within', () => {
    expect(convergedMinute(run([30, 11]), 10)).toBe(1);
  });
  it('is undefined when the run ends above the target', () => {
    expect(convergedMinute(run([30, 10, 11.5]), 10)).toBeUndefined();
  });
  it('reads samples by minute, whatever their order', () => {
    expect(convergedMinute(run([30, 12, 10]).reverse(), 10)).toBe(2);
  });
  it('rejects a bound that is not positive, naming it', () => {
    expect(() => convergedMinute(run([1]), 0)).toThrow(/bound must be > 0/);
  });
});
