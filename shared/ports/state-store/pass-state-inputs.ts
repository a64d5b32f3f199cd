// What the StateStore's pass-state writes accept, checked once for every adapter: a bad argument fails with
// InvalidStateInputError naming the method and the argument, before any write (test/contracts/state-store).
import { z } from 'zod';
import type { NegativeEntry } from '../../disruption/negative-cache.ts';
import { parseInput } from './errors.ts';
import type { ConsolidatedView } from '../../disruption/consolidated-state.ts';
import {
  consolidatedViewSchema,
  negativeEntrySchema,
  nominationSchema,
  podVerdictSchema,
  storeName,
  unavailableOfferingSchema,
  unseenPoolsSchema,
  type Nomination,
  type PodVerdict,
  type UnavailableOfferingRecord,
} from './records.ts';

const names = z.array(storeName);
/** Coverage cycles and the unseen-pools version count up from 0. */
const counter = z.number().int().min(0);

export const passStateInputs = {
  startCoverageCycle(nodePool: string, expected: number): void {
    parseInput(storeName, nodePool, 'startCoverageCycle.nodePool');
    parseInput(counter, expected, 'startCoverageCycle.expected');
  },
  markEvaluated(nodePool: string, cycle: number, candidates: readonly string[]): void {
    parseInput(storeName, nodePool, 'markEvaluated.nodePool');
    parseInput(names, candidates, 'markEvaluated.candidates');
    parseInput(counter, cycle, 'markEvaluated.cycle');
  },
  putUnseenPools(expected: number, pools: readonly string[]): z.output<typeof unseenPoolsSchema> {
    const parsed = parseInput(unseenPoolsSchema, pools, 'putUnseenPools.pools');
    parseInput(counter, expected, 'putUnseenPools.expected');
    return parsed;
  },
  putNegativeEntries: (entries: readonly NegativeEntry[]) =>
    parseInput(z.array(negativeEntrySchema), entries, 'putNegativeEntries.entries'),
  deleteNegativeEntries: (candidates: readonly string[]) =>
    parseInput(names, candidates, 'deleteNegativeEntries.candidates'),
  putConsolidatedView: (view: ConsolidatedView | undefined) =>
    view === undefined ? undefined : parseInput(consolidatedViewSchema, view, 'putConsolidatedView.view'),
  putVerdicts: (verdicts: readonly PodVerdict[]) =>
    parseInput(z.array(podVerdictSchema), verdicts, 'putVerdicts.verdicts'),
  putNominations: (nominations: readonly Nomination[]) =>
    parseInput(z.array(nominationSchema), nominations, 'putNominations.nominations'),
  deleteNominations: (podKeys: readonly string[]) => parseInput(names, podKeys, 'deleteNominations.podKeys'),
  putUnavailableOfferings: (offerings: readonly UnavailableOfferingRecord[]) =>
    parseInput(z.array(unavailableOfferingSchema), offerings, 'putUnavailableOfferings.offerings'),
} as const;
