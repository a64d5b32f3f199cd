// The deployment parameters a scenario's operator sets (`npx osls deploy --param maxCommands=5`), turned into the
// environment every function gets, as serverless.yml's provider.environment turns them (docs/deploy.md, "Turning
// on the optimisations"). The values stay strings, as `--param` gives them: each function's config parse validates
// them and names a bad one. KRAFTSMAN_UPSTREAM still forces Karpenter's behaviour over them (passOptions).

/** serverless.yml's `${param:<name>, null}` → the variable it sets (test/unit/fleet/deploy-parameters.test.ts). */
export const DEPLOY_PARAMETERS = {
  maxCommands: 'KRAFTSMAN_MAX_COMMANDS',
  skipUnchangedNegatives: 'KRAFTSMAN_SKIP_UNCHANGED_NEGATIVES',
  /**
   * The walk budgets (Karpenter's 3 min single-node, 1 min multi-node), both modes (kraftsman, upstream) read them;
   * spent on the fleet's clock: the walk's work at its modelled cost, or wall time with --wall-clock (docs/fleet.md).
   */
  singleNodeTimeout: 'KRAFTSMAN_SINGLE_NODE_TIMEOUT',
  multiNodeTimeout: 'KRAFTSMAN_MULTI_NODE_TIMEOUT',
  /** The sync gate's policy (docs/mechanisms/sync-gate.md): Strict unless set. */
  disruptionSyncPolicy: 'KRAFTSMAN_DISRUPTION_SYNC_POLICY',
  /** Candidates per census worker (docs/mechanisms/census.md#fan-out): a census of more fans out. */
  censusShardSize: 'KRAFTSMAN_CENSUS_SHARD_SIZE',
} as const;

export type DeployParameter = keyof typeof DEPLOY_PARAMETERS;
export type DeployParameters = Readonly<Partial<Record<DeployParameter, string>>>;

/** The variables the parameters set; an unset parameter sets nothing (serverless.yml's `null`). */
export function parameterEnv(p: DeployParameters = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(p)) {
    const key = DEPLOY_PARAMETERS[name as DeployParameter] as string | undefined;
    if (key === undefined)
      throw new Error(
        `fleet: deployment parameter "${name}" is not one serverless.yml reads (${Object.keys(DEPLOY_PARAMETERS).join(', ')})`,
      );
    if (value !== undefined) out[key] = value;
  }
  return out;
}
