// The functions the local fleet runs, each built the way Lambda builds it (functions/<fn>/deps.ts from the
// environment's endpoints) and invoked through functions/<fn>/handler.ts. Handlers join this list as they
// land; until then the fleet runs the alive cluster (binder, budgets) and the scenario's load alone.
import type { FleetEnvironment } from './environment.ts';
import type { HandlerRegistry } from './registry.ts';

export function lambdaFunctions(_env: FleetEnvironment, _now: () => Date): Promise<HandlerRegistry> {
  return Promise.resolve([]);
}
