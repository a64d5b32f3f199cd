// The admit function's dependencies, built once per container: config from process.env, the cluster, the
// store, instance types with prices (for re-validation), the launch invoker, the timer (settling delay and
// lock polling), command ids, logs and metrics.
import { admitConfig, type AdmitConfig } from '../../shared/config/admit.ts';
import type { AdmitDeps } from '../../shared/loop/admit.ts';
import type { LaunchVia } from '../../shared/loop/start-command.ts';
import type { Invoker } from '../../shared/ports/invoker.ts';
import type { Timer } from '../../shared/ports/timer.ts';
import {
  composeDeps,
  passInstanceTypes,
  buildInvoker,
  oncePerContainer,
  type InvocationObservability,
} from '../compose/index.ts';

export interface AdmitHandlerDeps {
  readonly loop: AdmitDeps & { readonly nonce: () => string };
  readonly settings: Pick<
    AdmitConfig,
    'clusterName' | 'options' | 'settlingDelayMs' | 'lockWaitMs' | 'lockPollMs'
  >;
  readonly obs: InvocationObservability;
}

/** A replacement's launch: one async invoke of its cloud's launcher (its launch record is already written). */
export const launchThrough =
  (invoker: Invoker) =>
  (_claim: unknown, via: LaunchVia): Promise<void> =>
    invoker.invoke(via.cloud === 'aws' ? 'launch-aws' : 'launch-gcp', via.request);

/** Command ids: lowercase [a-z0-9], 20 characters of a fresh nonce. */
export const commandIds = (nonce: () => string) => (): string =>
  nonce()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 20);

export const timerWaits = (timer: Timer) => ({
  sleep: (ms: number) => timer.sleep(ms),
  poll: (ms: number) => timer.sleep(ms),
});

export function buildAdmitDeps(env: Readonly<Record<string, string | undefined>>): AdmitHandlerDeps {
  const config = admitConfig(env);
  return composeDeps(config, ({ time, obs, cluster, store }) => ({
    cluster,
    store,
    instanceTypes: passInstanceTypes(config, time.clock, obs).forPools,
    launch: launchThrough(buildInvoker(config.invoker)),
    newId: commandIds(time.nonce),
    ...timerWaits(time.timer),
    clock: time.clock,
    nonce: time.nonce,
    metrics: obs.metrics,
    logger: obs.logger,
  }));
}

export const admitDeps = oncePerContainer(() => buildAdmitDeps(process.env));
