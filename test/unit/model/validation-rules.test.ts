// The API server's and Karpenter's parsing rules the schemas build on: Go durations, robfig/cron, metav1.Time,
// DNS-1123 and qualified names, container resource rules.
import { describe, expect, it } from 'vitest';
import {
  canFire,
  isCron,
  lastFiring,
  matchesCrdSchedulePattern,
  parseCron,
} from '../../../shared/model/cron.ts';
import { isCrdNillableDuration, MAX_DURATION_NS, parseDurationNs } from '../../../shared/model/duration.ts';
import {
  dns1123LabelError,
  dns1123SubdomainError,
  labelValueError,
  qualifiedNameError,
} from '../../../shared/model/name-rules.ts';
import { parseQuantity } from '../../../shared/model/quantity.ts';
import { containerResourceIssues } from '../../../shared/model/resource-rules.ts';
import { parseTimestamp } from '../../../shared/model/timestamp.ts';

describe('Go durations', () => {
  it.each([
    ['0', 0n],
    ['1h30m', 5_400_000_000_000n],
    ['1.5h', 5_400_000_000_000n],
    ['.5s', 500_000_000n],
    ['1µs', 1_000n],
    ['-2m', -120_000_000_000n],
    ['2562047h47m16.854775807s', MAX_DURATION_NS],
  ])('reads %s as time.ParseDuration does', (text, ns) => expect(parseDurationNs(text)).toBe(ns));

  it.each(['', '1', 'h', '1d', '1.h.', '2562048h', '2562047h47m16.854775808s', `${'9'.repeat(200)}h`])(
    'refuses %j',
    (text) => expect(parseDurationNs(text)).toBeUndefined(),
  );

  it("keeps the CRD's whole-unit pattern for expireAfter and consolidateAfter", () => {
    expect(['720h', '1h30m', '30s', 'Never'].map(isCrdNillableDuration)).toEqual([true, true, true, true]);
    expect(['1.5h', '720', 'never', '2562048h', '1ms'].map(isCrdNillableDuration)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('cron as Karpenter reads it (CRD pattern, then robfig/cron ParseStandard)', () => {
  it.each([
    '0 9 * * 1-5',
    '*/15 * * * *',
    '0 0 1 jan,jul *',
    '0 0 * * SUN',
    '@daily',
    '@hourly ',
    '0 0 31 2 *',
    '+5 * * * *',
    '1,,2 * * * *',
  ])('accepts %j', (text) => expect(isCron(text)).toBe(true));
  it.each([
    '0 0 * * 7',
    '60 * * * *',
    '*/0 * * * *',
    '5-1 * * * *',
    '@every 1h',
    '@hourlyx',
    ' @daily',
    'TZ=UTC 0 0 * * *',
    '0 0 * *',
    '-1 * * * *',
    '1-2-3 * * * *',
  ])('refuses %j', (text) => expect(isCron(text)).toBe(false));

  it('evaluates the CRD pattern in linear time where the regular expression would backtrack', () => {
    expect(matchesCrdSchedulePattern(`${'a'.repeat(50_000)}`)).toBe(false);
    expect(matchesCrdSchedulePattern('a b c d e')).toBe(true);
    expect(matchesCrdSchedulePattern('x\na b c d e')).toBe(true);
    expect(matchesCrdSchedulePattern('a\n\nb c d e')).toBe(false);
  });

  it("keeps robfig's star bit: */1 is a star, */2 is not", () => {
    expect(parseCron('0 0 */1 * 1').domStar).toBe(true);
    expect(parseCron('0 0 */2 * 1').domStar).toBe(false);
  });

  it('knows a schedule that can never fire', () => {
    expect(canFire(parseCron('0 0 31 2 *'))).toBe(false);
    expect(canFire(parseCron('0 0 30 2 *'))).toBe(false);
    expect(canFire(parseCron('0 0 29 2 *'))).toBe(true);
    expect(canFire(parseCron('0 0 31 2 1'))).toBe(true); // both day fields restricted: either matches
  });

  it('ends a look-back of 2562047h for a yearly schedule, reaching back before year 100', () => {
    const at = new Date('2026-12-01T12:00:00Z');
    const first = lastFiring(parseCron('0 0 29 2 *'), at, 2562047 * 3_600_000);
    expect(first?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    const ancient = lastFiring(
      parseCron('0 0 1 1 *'),
      new Date(Date.parse('0050-06-01T00:00:00Z')),
      365 * 86_400_000,
    );
    expect(ancient?.toISOString()).toBe('0050-01-01T00:00:00.000Z');
  });
});

describe('metav1.Time', () => {
  it.each([
    '2026-09-01T12:00:00Z',
    '2026-09-01T12:00:00.123456789Z',
    '2026-09-01T12:00:00+05:30',
    '2024-02-29T00:00:00Z',
    '0001-01-01T00:00:00Z',
  ])('accepts %s', (text) => expect(parseTimestamp(text)).toBeTypeOf('number'));
  it.each([
    '1',
    'Tuesday, 1 December 2026',
    '2026-09-01',
    '2026-09-01T12:00:00',
    '2026-09-01t12:00:00z',
    '2026-02-29T00:00:00Z',
    '2026-09-01T24:00:00Z',
    '2026-09-01T12:00:60Z',
    '2026-09-01T12:00:00+24:00',
  ])('refuses %j', (text) => expect(parseTimestamp(text)).toBeUndefined());
  it('reads years before 100 as themselves', () => {
    expect(parseTimestamp('0050-01-01T00:00:00Z')).toBe(Date.parse('0050-01-01T00:00:00Z'));
  });
});

describe('name rules (k8s.io/apimachinery/pkg/util/validation)', () => {
  it('DNS-1123 labels and subdomains', () => {
    expect(dns1123LabelError('team-a')).toBeUndefined();
    expect(dns1123LabelError('team.a')).toMatch(/RFC 1123 label/);
    expect(dns1123LabelError('a'.repeat(64))).toMatch(/63/);
    expect(dns1123SubdomainError('web-0.example')).toBeUndefined();
    expect(dns1123SubdomainError('Web')).toMatch(/subdomain/);
    expect(dns1123SubdomainError(`${'a'.repeat(63)}.`.repeat(4) + 'a')).toMatch(/253/);
  });
  it('qualified names and label values', () => {
    expect(qualifiedNameError('example.com/My_Name.1')).toBeUndefined();
    expect(qualifiedNameError('a/b/c')).toMatch(/qualified name/);
    expect(qualifiedNameError('/x')).toMatch(/prefix part must be non-empty/);
    expect(qualifiedNameError('Example.com/x')).toMatch(/prefix part/);
    expect(qualifiedNameError(`x/${'n'.repeat(64)}`)).toMatch(/name part must be no more than 63/);
    expect(labelValueError('')).toBeUndefined();
    expect(labelValueError('-x')).toMatch(/valid label/);
  });
});

describe('container resource rules (ValidateResourceRequirements)', () => {
  it('passes whole GPUs with an equal limit and overcommitted CPU', () => {
    expect(
      containerResourceIssues({ cpu: '1', 'nvidia.com/gpu': '2' }, { cpu: '2', 'nvidia.com/gpu': '2' }),
    ).toEqual([]);
  });
  it('names every broken rule with its path', () => {
    const issues = containerResourceIssues(
      { cpu: '2', 'nvidia.com/gpu': '0.5', 'example.com/fpga': '1', gpu: '1' },
      { cpu: '1', 'nvidia.com/gpu': '0.5' },
    );
    expect(issues.map((i) => `${i.path.join('.')}: ${i.message.split(' ').slice(0, 4).join(' ')}`)).toEqual([
      'requests.nvidia.com/gpu: must be an integer',
      'requests.gpu: must be a standard',
      'limits.nvidia.com/gpu: must be an integer',
      'requests.cpu: must be less than',
      'limits.example.com/fpga: must be set: example.com/fpga',
    ]);
  });
  it('reads a 200,000-digit quantity no slower than a short one', () => {
    expect(() => parseQuantity('9'.repeat(200_000))).toThrow(/longer than 64 characters/);
  });
});
