// The payload of an asynchronous launch (launch-aws / launch-gcp): one claim, or one gang's claims, with the
// node class the provisioner resolved (per claim, for a gang whose members come from NodePools with different
// node classes: docs/mechanisms/gangs.md#mixed-shapes) and the fence of the lease the claims were created under. The invoker
// records each claim's launch (StateStore.recordLaunch, fenced) BEFORE it invokes: the launch runs later,
// when that lease may be released, and only completes the record.
import { z } from 'zod';
import { ec2NodeClassSchema, gceNodeClassSchema } from '../model/nodeclass.ts';
import { fenceSchema, storeName } from '../ports/state-store/records.ts';

const nodeClassSchema = z.union([ec2NodeClassSchema, gceNodeClassSchema]);

export const launchRequestSchema = z
  .object({
    fence: fenceSchema,
    nodeClass: nodeClassSchema,
    /** A gang member's node class where it differs from `nodeClass` (claim name → node class). */
    nodeClasses: z.record(storeName, nodeClassSchema).optional(),
    claims: z.array(storeName).min(1).max(100),
    /** Set for a gang: every claim launches, or none does. */
    gang: storeName.optional(),
    /** The disruption command whose replacements these are. */
    commandId: storeName.optional(),
  })
  .refine((r) => r.gang !== undefined || r.claims.length === 1, {
    message: 'more than one claim needs a gang',
    path: ['claims'],
  })
  .refine((r) => Object.keys(r.nodeClasses ?? {}).every((name) => r.claims.includes(name)), {
    message: 'names a claim that is not in claims',
    path: ['nodeClasses'],
  });
export type LaunchRequestPayload = z.infer<typeof launchRequestSchema>;

/** The node class a claim of this request launches with. */
export const nodeClassOf = (r: LaunchRequestPayload, claim: string): LaunchRequestPayload['nodeClass'] =>
  r.nodeClasses?.[claim] ?? r.nodeClass;
