// The Kubernetes API emulator's public surface: the server, its CRDs, and the helpers that make a
// local fleet look alive (node registration, binder with gangs, owners, PDB status, pod GC).
export { KubeApiEmulator, type AuditEntry, type EmulatorOptions } from './server.ts';
export { AuditLog, DEFAULT_AUDIT_LIMIT } from './audit.ts';
export { emptyWatches, staleView } from './faults.ts';
export { defaultCrds, loadCrdDir, loadCrdFile } from './crds.ts';
export { bindPending, type BindResult } from './alive/binder.ts';
export { enableOwnerRecreation } from './alive/owners.ts';
export { LOCAL_CA_BUNDLE, LOCAL_CA_CERT_HASH } from './bootstrap-auth.ts';
export { parseBootstrap, registerNode, type NodeRegistration } from './alive/register-node.ts';
export { refreshDisruptionBudgets } from './alive/disruption-budgets.ts';
export { collectPodGarbage, POD_GC_QUARANTINE_MS, type PodGcResult } from './alive/pod-gc.ts';
export type { KubeObject } from './store.ts';
export type { BookmarkSchedule } from './watch.ts';
