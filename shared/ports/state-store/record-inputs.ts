// What the StateStore's lease, command, launch and census calls accept, checked once for every adapter (as
// pass-state-inputs.ts does for the pass state): a bad argument fails with InvalidStateInputError naming the
// method and the argument, before any read or write (test/contracts/state-store).
import { z } from 'zod';
import { COMMAND_TRANSITIONS, type CommandStatus } from './command-states.ts';
import { InvalidStateInputError, parseInput } from './errors.ts';
import {
  ADMISSION_LOCK,
  censusResultSchema,
  censusShardSchema,
  commandFailureSchema,
  commandInputSchema,
  fenceSchema,
  launchInputSchema,
  launchOutcomeSchema,
  leaseRequestSchema,
  replacementIdentitySchema,
  storeName,
  type CensusResult,
  type CensusShardRecord,
  type CommandFailure,
  type CommandInput,
  type Fence,
  type LaunchInput,
  type LaunchOutcome,
  type LeaseRequest,
  type ReplacementIdentity,
} from './records.ts';

const fence = (f: Fence, method: string): Fence => parseInput(fenceSchema, f, `${method}.fence`);

export const recordInputs = {
  acquireLease: (request: LeaseRequest) => parseInput(leaseRequestSchema, request, 'acquireLease'),
  heartbeatLease(lease: Fence, ttlMs: number): Fence {
    const parsed = parseInput(fenceSchema, lease, 'heartbeatLease.lease');
    parseInput(leaseRequestSchema.shape.ttlMs, ttlMs, 'heartbeatLease.ttlMs');
    return parsed;
  },
  releaseLease: (lease: Fence): Fence => parseInput(fenceSchema, lease, 'releaseLease.lease'),

  /** Commands are fenced by the admission lock alone, so orchestration can tell admitted work by its token. */
  admitCommand(f: Fence, command: CommandInput): { fence: Fence; command: CommandInput } {
    const parsed = {
      fence: fence(f, 'admitCommand'),
      command: parseInput(commandInputSchema, command, 'admitCommand.command'),
    };
    if (parsed.fence.name !== ADMISSION_LOCK)
      throw new InvalidStateInputError(
        `admitCommand: commands are fenced by the admission lock, not ${parsed.fence.name}`,
      );
    return parsed;
  },
  confirmCommand(
    f: Fence,
    id: string,
    replacements: readonly ReplacementIdentity[] = [],
  ): { fence: Fence; replacements: ReplacementIdentity[] } {
    const parsed = fence(f, 'confirmCommand');
    parseInput(storeName, id, 'confirmCommand.id');
    const ids = parseInput(
      z.array(replacementIdentitySchema).max(100),
      replacements,
      'confirmCommand.replacements',
    );
    return { fence: parsed, replacements: ids };
  },
  getCommand: (id: string): void => void parseInput(storeName, id, 'getCommand.id'),
  findCommandsByCandidate: (candidate: string): void =>
    void parseInput(storeName, candidate, 'findCommandsByCandidate.candidate'),
  transitionCommand(id: string, from: CommandStatus, to: CommandStatus): void {
    if (!COMMAND_TRANSITIONS[from]?.includes(to))
      throw new InvalidStateInputError(`transitionCommand: ${from} → ${to} is not a command transition`);
    parseInput(storeName, id, 'transitionCommand.id');
  },
  recordCommandFailure(id: string, failure: CommandFailure | undefined): CommandFailure | undefined {
    parseInput(storeName, id, 'recordCommandFailure.id');
    return failure === undefined
      ? undefined
      : parseInput(commandFailureSchema, failure, 'recordCommandFailure.failure');
  },

  recordLaunch: (f: Fence, launch: LaunchInput): { fence: Fence; launch: LaunchInput } => ({
    fence: fence(f, 'recordLaunch'),
    launch: parseInput(launchInputSchema, launch, 'recordLaunch.launch'),
  }),
  completeLaunch(claimName: string, outcome: LaunchOutcome): LaunchOutcome {
    parseInput(storeName, claimName, 'completeLaunch.claimName');
    return parseInput(launchOutcomeSchema, outcome, 'completeLaunch.outcome');
  },
  getLaunch: (claimName: string): void => void parseInput(storeName, claimName, 'getLaunch.claimName'),

  putCensus: (results: readonly CensusResult[]): CensusResult[] =>
    parseInput(z.array(censusResultSchema), results, 'putCensus.results'),
  putCensusShard: (shard: CensusShardRecord): CensusShardRecord =>
    parseInput(censusShardSchema, shard, 'putCensusShard.shard'),
  listCensusShards: (runId: string): string => parseInput(storeName, runId, 'listCensusShards.runId'),
} as const;
