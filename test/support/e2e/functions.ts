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
import type { LifecycleSettings } from '../../../shared/loop/lifecycle.ts';
import type { WatchSettings } from '../../../shared/loop/provision.ts';
import type { Cloud } from '../../../shared/model/labels.ts';
import type { CloudProvider } from '../../../shared/ports/cloud-provider/index.ts';
import type { E2eHarness } from './harness.ts';
import { lambdaContext } from './lambda-events.ts';

const obs = (h: E2eHarness) => ({ logger: h.logger, metrics: h.metrics });
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
  const deps: ProvisionHandlerDeps = {
    loop: {
      cluster: h.cluster(),
      store: h.store(),
      invoker: h.invoker,
      instanceTypes: new InstanceTypeCache({ aws: h.ec2Provider(), gcp: h.gceProvider() }, h.clock, 60_000),
      clock: h.clock,
      timer: h.timer,
      nonce,
      ...obs(h),
    },
    settings: {
      clusterName: h.clusterName,
      leaseTtlMs: 30_000,
      watch: { ...TEST_WATCH, ...watch },
      batch: { nominationTtlMs: 25 * 60_000, verdictTtlMs: 5 * 60_000, upstream: false },
    },
    obs: obs(h),
  };
  return createProvisionHandler(() => Promise.resolve(deps));
}

export function launchDeps(h: E2eHarness, provider: CloudProvider): LaunchHandlerDeps {
  return {
    loop: { cluster: h.cluster(), store: h.store(), provider, clock: h.clock, ...obs(h) },
    settings: { clusterName: h.clusterName, unavailableTtlMs: 180_000 },
    obs: obs(h),
  };
}

export function launchHandler(h: E2eHarness, cloud: Cloud, provider?: CloudProvider) {
  const p = provider ?? (cloud === 'aws' ? h.ec2Provider() : h.gceProvider());
  return createLaunchHandler(`launch-${cloud}`, () => Promise.resolve(launchDeps(h, p)));
}

/** provision → launch-aws / launch-gcp through the in-process invoker (Lambda's async Event invocation). */
export function wireLaunchers(h: E2eHarness, providers: Partial<Record<Cloud, CloudProvider>> = {}): void {
  const aws = launchHandler(h, 'aws', providers.aws);
  const gcp = launchHandler(h, 'gcp', providers.gcp);
  h.invoker.register('launch-aws', (payload) => aws(payload, lambdaContext('launch-aws')));
  h.invoker.register('launch-gcp', (payload) => gcp(payload, lambdaContext('launch-gcp')));
}

export const TEST_LIFECYCLE: LifecycleSettings = {
  timeouts: { launchMs: 5 * 60_000, registrationMs: 15 * 60_000, initializationMs: 15 * 60_000 },
  drainTimeoutMs: 10 * 60_000,
  gcGraceMs: 60_000,
  preemptionLookbackMs: 5 * 60_000,
};

export function lifecycleHandler(h: E2eHarness, settings: Partial<LifecycleSettings> = {}) {
  const gce = h.gceProvider();
  const deps: LifecycleHandlerDeps = {
    loop: {
      cluster: h.cluster(),
      store: h.store(),
      providers: { aws: h.ec2Provider(), gcp: gce },
      preemptions: gce,
      clock: h.clock,
      timer: h.timer,
      nonce,
      ...obs(h),
    },
    settings: {
      clusterName: h.clusterName,
      leaseTtlMs: 30_000,
      lifecycle: { ...TEST_LIFECYCLE, ...settings },
    },
    obs: obs(h),
  };
  return createLifecycleHandler(() => Promise.resolve(deps));
}
