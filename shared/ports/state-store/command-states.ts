// The disruption command's state machine (Karpenter's orchestration queue): replacements launch, candidates
// drain, or the command rolls back; one that keeps failing ends `failed` (docs/functions/orchestrate.md).
// Every StateStore implementation refuses a transition not listed here.
export const COMMAND_STATUSES = [
  'launching',
  'draining',
  'rolling-back',
  'completed',
  'rolled-back',
  'failed',
] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
export const OPEN_COMMAND_STATUSES: readonly CommandStatus[] = ['launching', 'draining', 'rolling-back'];
/** The queue's state machine (Karpenter's orchestration queue): replacements launch, candidates drain, or roll back. */
export const COMMAND_TRANSITIONS: Readonly<Record<CommandStatus, readonly CommandStatus[]>> = {
  launching: ['draining', 'rolling-back', 'failed'],
  draining: ['completed', 'rolling-back', 'failed'],
  'rolling-back': ['rolled-back', 'failed'],
  completed: [],
  'rolled-back': [],
  failed: [],
};

/**
 * A command is admitted or ends (completed, failed, rolled back): the capacity every remembered no-op verdict
 * was computed against moves, so the store clears the negative cache (docs/mechanisms/negative-cache.md).
 */
export const endsCommand = (to: CommandStatus): boolean => COMMAND_TRANSITIONS[to].length === 0;
