// The cause vocabulary of claim accounting (docs/functions/lifecycle.md#observability): every method's reason as
// Karpenter labels it (the table in claim-accounting.ts must follow the methods), and every interruption kind
// folded into `interruption` while lifecycle's own causes pass through.
import { describe, expect, it } from 'vitest';
import { METHODS } from '../../../shared/disruption/methods.ts';
import { causeLabel, commandCause } from '../../../shared/loop/claim-accounting.ts';
import { TERMINATION_CAUSES } from '../../../shared/model/labels.ts';

describe('claim accounting causes', () => {
  it("labels a command's candidates with its method's reason in snake case", () => {
    for (const m of METHODS) expect(commandCause(m.name)).toBe(m.reason.toLowerCase());
  });

  it('folds every interruption kind into one cause and keeps the others', () => {
    for (const c of [...TERMINATION_CAUSES, 'interrupted']) expect(causeLabel(c)).toBe('interruption');
    for (const c of ['expired', 'never_initialized', 'underutilized', 'node_deleted'])
      expect(causeLabel(c)).toBe(c);
  });
});
