// The Kubernetes API emulator's public surface: the server, its CRDs, and the helpers that make a
// local fleet look alive (node registration, binder with gangs, owners, PDB status).
export { KubeApiEmulator, type AuditEntry, type EmulatorOptions } from './server.ts';
export { defaultCrds, loadCrdDir, loadCrdFile } from './crds.ts';
export { bindPending, type BindResult } from './alive/binder.ts';
export { enableOwnerRecreation } from './alive/owners.ts';
export { parseBootstrap, registerNode, type NodeRegistration } from './alive/register-node.ts';
export { refreshDisruptionBudgets } from './alive/disruption-budgets.ts';
export type { KubeObject } from './store.ts';
