// The instance profiles a cloud keeps for node classes (EC2NodeClass spec.role): lifecycle garbage-collects those
// no node class or live NodeClaim needs any more (docs/mechanisms/instance-profiles.md).

export interface ProfileGcInput {
  /** Names of the EC2NodeClasses whose managed profile must stay: a role still set, or a live NodeClaim using it. */
  readonly needed: ReadonlySet<string>;
  readonly now: Date;
  /** A profile younger than this stays: its node class may be newer than the snapshot read. */
  readonly graceMs: number;
}

export interface ProfileGcCounts {
  readonly deleted: number;
  readonly kept: number;
  /** Listed under this cluster's path but not proved this cluster's (name or tags): never touched. */
  readonly refused: number;
}

export interface InstanceProfileCollector {
  collect(input: ProfileGcInput): Promise<ProfileGcCounts>;
}
