// Metric names of the provisioning loop: Karpenter's where it has one (karpenter.sh metrics reference), with
// low-cardinality labels only (NodePool, capacity type, instance type, cause — never a claim or pod name).
export const PROVISIONING_METRICS = {
  nodeClaimsCreatedTotal: 'karpenter_nodeclaims_created_total',
  nodeClaimsLaunchedTotal: 'karpenter_nodeclaims_launched_total',
  nodeClaimsRegisteredTotal: 'karpenter_nodeclaims_registered_total',
  nodeClaimsInitializedTotal: 'karpenter_nodeclaims_initialized_total',
  nodeClaimsTerminatedTotal: 'karpenter_nodeclaims_terminated_total',
  nodeClaimsDisruptedTotal: 'karpenter_nodeclaims_disrupted_total',
  podsStartupDurationSeconds: 'karpenter_pods_startup_duration_seconds',
  schedulingDurationSeconds: 'karpenter_provisioner_scheduling_duration_seconds',
  /** Pod pending (creation) → its NodeClaim created: what the watch loop's batching costs a pod. */
  podClaimLatencySeconds: 'kraftsman_provisioner_pod_nodeclaim_latency_seconds',
  batchPods: 'kraftsman_provisioner_batch_pods',
  unschedulablePodsTotal: 'kraftsman_provisioner_unschedulable_pods_total',
  verdictsWrittenTotal: 'kraftsman_provisioner_verdicts_written_total',
  /** 1 for a NodePool scheduling may use, 0 for a NotReady one (its node class missing or not Ready). */
  nodePoolReady: 'kraftsman_nodepool_ready',
  unavailableOfferingsTotal: 'kraftsman_unavailable_offerings_total',
  launchFailuresTotal: 'kraftsman_launch_failures_total',
  /** A gang refused for capacity on one cloud placed whole on another (docs/mechanisms/gangs.md#cross-cloud-failover). */
  gangFailoversTotal: 'kraftsman_gang_failovers_total',
  /** A refused gang no other cloud admits (`pinned`) or can take now (`exhausted`). */
  gangFailoverFailuresTotal: 'kraftsman_gang_failover_failures_total',
  nodeClaimLifetimeSeconds: 'kraftsman_nodeclaim_lifetime_seconds',
  nodeClaimTerminationDurationSeconds: 'kraftsman_nodeclaim_termination_duration_seconds',
  garbageCollectedTotal: 'kraftsman_garbage_collected_total',
  interruptionsTotal: 'kraftsman_interruption_signals_total',
} as const;

export const PROVISIONING_LABELS = {
  nodePool: 'nodepool',
  reason: 'reason',
  cloud: 'cloud',
  fromCloud: 'from_cloud',
  toCloud: 'to_cloud',
  capacityType: 'capacity_type',
  instanceType: 'instance_type',
  cause: 'cause',
  origin: 'origin',
  kind: 'kind',
} as const;
