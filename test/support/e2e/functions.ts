// The functions as the end-to-end tests run them: each handler with dependencies built the way its deps.ts
// builds them (through functions/compose), but against the harness's servers, clock and recording logs and
// metrics. Each call is one Lambda container; `wireLaunchers` makes provision's invocations reach launch-*.
import { randomUUID } from 'node:crypto';
import { createLaunchHandler, type LaunchHandlerDeps } from '../../../functions/compose/index.ts';
import { createLifecycleHandler } from '../../../functions/lifecycle/handler.ts';
import type { LifecycleHandlerDeps } from '../../../functions/lifecycle/deps.ts';
import { createProvisionHandler } from '../../../functions/provision/handler.ts';
import type { ProvisionHandlerDeps } from '../../../functions/provision/deps.ts';
import { InstanceTypeCache } from '../../../shared/loop/instance-types.ts';
import { StoredPrices } from '../../../shared/loop/prices.ts';
import type { LifecycleSettings } from '../../../shared/loop/lifecycle.ts';
import type { WatchSettings } from '../../../shared/loop/provision.ts';
import type { Cloud } from '../../../shared/model/labels.ts';
import type { CloudProvider } from '../../../shared/ports/cloud-provider/index.ts';
import type { KubeCluster } from '../../../shared/adapters/kube/index.ts';
import type { E2eHarness } from './harness.ts';
import { lambdaContext } from './lambda-events.ts';

/** One container's logs and metrics: its own logger keys (containers run at once), shared records. */
const obs = (h: E2eHarness) => ({ logger: h.logger.container(), metrics: h.metrics });
const nonce = () => randomUUID();

/** A short watch for tests: one batch unless `windowMs` says otherwise, Karpenter's batching scaled down. */
export const TEST_WATCH: WatchSettings = {
  windowMs: 0,
  idleMs: 200,
  maxMs: 2_000,
  pollMs: 50,
  retryMs: 60_000,
  maxFailures: 1,
};

export function provisionHandler(h: E2eHarness, watch: Partial<WatchSettings> = {}) {
  const o = obs(h);
  const deps: ProvisionHandlerDeps = {
    loop: {
      cluster: h.cluster(),
      store: h.store(),
      invoker: h.invoker,
      instanceTypes: new InstanceTypeCache({ aws: h.ec2Provider(), gcp: h.gceProvider() }, h.clock, 60_000),
      clock: h.clock,
      timer: h.timer,
      nonce,
      ...o,
    },
    settings: {
      clusterName: h.clusterName,
      leaseTtlMs: 30_000,
      watch: { ...TEST_WATCH, ...watch },
      batch: { nominationTtlMs: 25 * 60_000, verdictTtlMs: 5 * 60_000, upstream: false },
    },
    obs: o,
  };
  return createProvisionHandler(() => Promise.resolve(deps));
}

/**
 * A launcher's deps as composeLaunchDeps builds them: the stored price book over the built-in catalog (the
 * catalog alone until a pricing run stores a book), as a deployed launcher and the local fleet's read it.
 */
export function launchDeps(h: E2eHarness, provider: CloudProvider): LaunchHandlerDeps {
  const o = obs(h);
  const book = new StoredPrices({ store: h.priceStore(), clusterName: h.clusterName, clock: h.clock, ...o });
  return {
    loop: {
      cluster: h.cluster(),
      store: h.store(),
      provider,
      clock: h.clock,
      prices: () => book.lookup(provider.cloud),
      ...o,
    },
    settings: { clusterName: h.clusterName, unavailableTtlMs: 180_000 },
    obs: o,
  };
}

export function launchHandler(h: E2eHarness, cloud: Cloud, provider?: CloudProvider) {
  const p = provider ?? (cloud === 'aws' ? h.ec2Provider() : h.gceProvider());
  return createLaunchHandler(`launch-${cloud}`, () => Promise.resolve(launchDeps(h, p)));
}

/** provision → launch-aws / launch-gcp through the in-process invoker (Lambda's async Event invocation). */
export function wireLaunchers(h: E2eHarness, providers: Partial<Record<Cloud, CloudProvider>> = {}): void {
  // One provider per cloud (its caches warm, as a reused container's), but a handler per invocation: async
  // invocations run at once, each in its own container with its own logger keys.
  const aws = providers.aws ?? h.ec2Provider();
  const gcp = providers.gcp ?? h.gceProvider();
  h.invoker.register('launch-aws', (p) => launchHandler(h, 'aws', aws)(p, lambdaContext('launch-aws')));
  h.invoker.register('launch-gcp', (p) => launchHandler(h, 'gcp', gcp)(p, lambdaContext('launch-gcp')));
}

export const TEST_LIFECYCLE: LifecycleSettings = {
  timeouts: { launchMs: 5 * 60_000, registrationMs: 15 * 60_000, initializationMs: 15 * 60_000 },
  drainTimeoutMs: 10 * 60_000,
  gcGraceMs: 60_000,
  preemptionLookbackMs: 5 * 60_000,
};

/** `cluster`: a warm container's (its watches caught up from its last read); a fresh one by default. */
export function lifecycleHandler(
  h: E2eHarness,
  settings: Partial<LifecycleSettings> = {},
  cluster: KubeCluster = h.cluster(),
) {
  const gce = h.gceProvider();
  const aws = h.ec2Provider();
  const o = obs(h);
  const deps: LifecycleHandlerDeps = {
    loop: {
      cluster,
      store: h.store(),
      providers: { aws, gcp: gce },
      preemptions: gce,
      // As functions/lifecycle/deps.ts: the EC2 provider's managed instance profiles are collected here.
      ...(aws.instanceProfiles ? { instanceProfiles: aws.instanceProfiles } : {}),
      clock: h.clock,
      timer: h.timer,
      nonce,
      ...o,
    },
    settings: {
      clusterName: h.clusterName,
      leaseTtlMs: 30_000,
      lifecycle: { ...TEST_LIFECYCLE, ...settings },
    },
    obs: o,
  };
  return createLifecycleHandler(() => Promise.resolve(deps));
}
