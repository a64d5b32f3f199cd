// The one zod-issue formatter: every issue, each with its field path, optionally under a `where` prefix.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatIssuePath, formatZodIssues } from '../../../shared/model/zod-issues.ts';

const schema = z.object({
  name: z.string().min(1, 'name is required'),
  containers: z.array(z.object({ cpu: z.number() })).min(1),
});
const errorOf = (value: unknown): z.ZodError => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return parsed.error;
};

describe('formatZodIssues', () => {
  it('writes paths as Kubernetes writes field paths', () => {
    expect(formatIssuePath(['spec', 'containers', 0, 'resources'])).toBe('spec.containers[0].resources');
    expect(formatIssuePath([0, 'name'])).toBe('[0].name');
    expect(formatIssuePath([])).toBe('(root)');
  });

  it('reports every issue, not just the first', () => {
    expect(formatZodIssues(errorOf({ name: '', containers: [{ cpu: 'x' }] }))).toBe(
      'name: name is required; containers[0].cpu: must be a number, not a string',
    );
  });

  it('prefixes each path with where, also for an index or the value itself', () => {
    expect(formatZodIssues(errorOf({ name: 'a', containers: [{}] }), 'put.items')).toBe(
      'put.items.containers[0].cpu is required',
    );
    const list = z.array(z.string()).safeParse(['a', 1]);
    expect(list.success ? '' : formatZodIssues(list.error, 'markEvaluated.candidates')).toBe(
      'markEvaluated.candidates[1]: must be a string, not a number',
    );
    const nothing = z.object({ a: z.array(z.string()) }).safeParse({ a: null });
    expect(nothing.success ? '' : formatZodIssues(nothing.error)).toBe('a: must be an array, not null');
    const root = z.string().safeParse(1);
    expect(root.success ? '' : formatZodIssues(root.error, 'cluster')).toBe(
      'cluster: must be a string, not a number',
    );
  });
});
