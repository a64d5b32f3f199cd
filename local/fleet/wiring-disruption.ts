// The disruption functions of a local fleet — consolidate (scheduled) → admit (async invoke) → launch-*, and
// orchestrate (scheduled) driving each command to its end — built as their deps.ts build them, against the
// local servers. admit's settling delay passes on the fleet clock (it jumps ahead) rather than in real time.
import { commandIds, launchThrough, timerWaits, type AdmitHandlerDeps } from '../../functions/admit/deps.ts';
import { createAdmitHandler } from '../../functions/admit/handler.ts';
import type { ConsolidateHandlerDeps } from '../../functions/consolidate/deps.ts';
import { createConsolidateHandler } from '../../functions/consolidate/handler.ts';
import type { OrchestrateHandlerDeps } from '../../functions/orchestrate/deps.ts';
import { createOrchestrateHandler } from '../../functions/orchestrate/handler.ts';
import type { InProcessInvoker } from '../../shared/adapters/memory/invoker.ts';
import { systemTimer } from '../../shared/adapters/system-timer.ts';
import { admitConfig } from '../../shared/config/admit.ts';
import { consolidateConfig } from '../../shared/config/consolidate.ts';
import { orchestrateConfig } from '../../shared/config/orchestrate.ts';
import type { CloudProvider } from '../../shared/ports/cloud-provider/index.ts';
import type { FleetClock } from './clock.ts';
import type { InvocationMeter } from './costs.ts';
import { lambdaContext, type FleetFunction } from './registry.ts';
import type { Adapters } from './wiring.ts';

export interface DisruptionWiring {
  readonly clock: FleetClock;
  readonly meter: InvocationMeter;
  readonly invoker: InProcessInvoker;
  readonly nonce: () => string;
}

/** admit's waits (settling, lock polling) pass on the fleet clock: it jumps ahead, the step does not wait. */
const fleetWaits = (clock: FleetClock) => (ms: number) => {
  clock.advance(ms);
  return new Promise<void>((resolve) => setImmediate(resolve));
};

export function disruptionFunctions(
  vars: Readonly<Record<string, string>>,
  adapters: (fn: string) => Adapters,
  { clock, meter, invoker, nonce }: DisruptionWiring,
): FleetFunction[] {
  const c = adapters('consolidate');
  const cc = consolidateConfig(vars);
  const consolidateDeps: ConsolidateHandlerDeps = {
    loop: {
      cluster: c.cluster(cc.cluster),
      store: c.store(cc.store),
      invoker,
      instanceTypes: c.types(cc).forPools,
      clock,
      nonce,
      metrics: c.obs.metrics,
    },
    settings: cc,
    obs: c.obs,
  };

  const a = adapters('admit');
  const ac = admitConfig(vars);
  const admitDeps: AdmitHandlerDeps = {
    loop: {
      cluster: a.cluster(ac.cluster),
      store: a.store(ac.store),
      instanceTypes: a.types(ac).forPools,
      launch: launchThrough(invoker),
      newId: commandIds(nonce),
      // The settling delay is simulated time: the clock moves ahead at once (a real 15 s wait would hold the step).
      // So is the lock polling in simulated time, where a real wait would never see the clock move.
      ...(clock.mode === 'simulated'
        ? { sleep: fleetWaits(clock), poll: fleetWaits(clock) }
        : { ...timerWaits(systemTimer), sleep: fleetWaits(clock) }),
      clock,
      nonce,
      metrics: a.obs.metrics,
      logger: a.obs.logger,
    },
    settings: ac,
    obs: a.obs,
  };
  const admit = createAdmitHandler(() => Promise.resolve(admitDeps));
  let seq = 0;
  invoker.register('admit', (payload) =>
    meter('admit', () => admit(payload, lambdaContext('admit', ++seq, 900_000, clock))),
  );

  const o = adapters('orchestrate');
  const oc = orchestrateConfig(vars);
  const providers: CloudProvider[] = [o.ec2(oc.ec2), ...(oc.gce ? [o.gce(oc.gce)] : [])];
  const orchestrateDeps: OrchestrateHandlerDeps = {
    loop: {
      cluster: o.cluster(oc.cluster),
      store: o.store(oc.store),
      providers: new Map(providers.map((p) => [p.cloud, p])),
      clock,
      timer: systemTimer,
      nonce,
      logger: o.logger,
      metrics: o.obs.metrics,
    },
    settings: oc,
    obs: o.obs,
  };
  return [
    {
      name: 'consolidate',
      everyMinutes: 1,
      timeoutMs: 900_000,
      handler: createConsolidateHandler(() => Promise.resolve(consolidateDeps)),
    },
    {
      name: 'orchestrate',
      everyMinutes: 1,
      timeoutMs: 900_000,
      handler: createOrchestrateHandler(() => Promise.resolve(orchestrateDeps)),
    },
  ];
}
