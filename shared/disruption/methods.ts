// The disruption methods in the order a pass tries them; the pass ends after the first that yields commands.
import { drift } from './drift.ts';
import { emptiness } from './emptiness.ts';
import type { Method } from './method.ts';
import { multiNode } from './multi-node.ts';
import { singleNode } from './single-node.ts';

export const METHODS: readonly Method[] = [
  // Empty nodes first: deleting them moves no pod, so it is the cheapest saving and needs no simulation.
  emptiness,
  // Drift next: a node that no longer matches its NodePool must be replaced whatever it costs.
  drift,
  // Several nodes at once before one at a time: one command that removes many moves each pod only once.
  multiNode,
  // Finally one node at a time, to find the savings a batch could not.
  singleNode,
];
