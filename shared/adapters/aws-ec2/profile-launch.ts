// A launch with its instance profile (docs/mechanisms/instance-profiles.md): the profile is chosen (never none),
// and a fleet EC2 refused only because it cannot see a managed profile yet (IAM propagation) is asked again.
import type { EC2NodeClass } from '../../model/nodeclass.ts';
import { instanceProfileProblem } from '../../model/node-identity.ts';
import type { RetryPolicy } from '../../config/retry-policy.ts';
import { FatalCloudError, RetryableCloudError } from '../../ports/cloud-provider/errors.ts';
import type { Logger } from '../../ports/logger.ts';
import { backoffDelay, type Sleep } from '../backoff.ts';
import type { Ec2Context } from './ec2-context.ts';
import { NodeClassResolutionError } from './errors.ts';
import type { FleetOutcome } from './fleet.ts';
import type { InstanceProfiles, LaunchProfile } from './instance-profiles.ts';
import { clientToken, launchFleet, type LaunchPlan } from './launch.ts';
import type { ResolvedNodeClass } from './node-class-resolver.ts';

/**
 * IAM is eventually consistent: a profile just created (or given its role) is "Invalid IAM Instance Profile name"
 * to EC2 for a few seconds. A launch with a managed profile is asked again, waits growing to 8 s, about 20 s in all
 * at most.
 */
export const PROFILE_PROPAGATION: RetryPolicy = { attempts: 6, baseDelayMs: 1_000, maxDelayMs: 8_000 };

/** EC2's answer to a launch naming a profile it cannot see (Karpenter's IsInstanceProfileNotFound). */
const profileNotVisible = (o: FleetOutcome): boolean =>
  o.launched.length === 0 &&
  o.otherErrors.some(
    (e) => e.code === 'InvalidParameterValue' && e.message.includes('Invalid IAM Instance Profile name'),
  );

export interface ProfileLaunchDeps {
  readonly ctx: Ec2Context;
  readonly sleep: Sleep;
  /** The managed profiles (IAM); without them only spec.instanceProfile launches. */
  readonly profiles?: InstanceProfiles;
  readonly logger?: Logger;
}

/** The launch's instance profile: never none. */
export async function profileFor(
  profiles: InstanceProfiles | undefined,
  nc: EC2NodeClass,
): Promise<LaunchProfile> {
  const problem = instanceProfileProblem(nc);
  if (problem) throw new FatalCloudError(`EC2NodeClass ${nc.metadata.name}: ${problem}`);
  if (profiles)
    try {
      return await profiles.forLaunch(nc);
    } catch (err) {
      throw err instanceof NodeClassResolutionError ? new FatalCloudError(err.message, { cause: err }) : err;
    }
  if (nc.spec.instanceProfile) return { name: nc.spec.instanceProfile, managed: false };
  throw new FatalCloudError(
    `EC2NodeClass ${nc.metadata.name}: spec.role needs an instance profile made through IAM, and this provider has no IAM client`,
  );
}

/**
 * Launches with the node class's profile. A refusal for an invisible managed profile is asked again under a token
 * salted with the refused fleet's id: EC2 hands a token it has seen its old answer back, and the same refused fleet
 * gives the same new token, so a retried invocation stays idempotent. For spec.instanceProfile it is the user's error.
 */
export async function launchWithProfile(
  deps: ProfileLaunchDeps,
  resolved: ResolvedNodeClass,
  plan: LaunchPlan,
): Promise<FleetOutcome> {
  const profile = await profileFor(deps.profiles, plan.nodeClass);
  const where = `EC2NodeClass ${plan.nodeClass.metadata.name}`;
  let current = plan;
  for (let attempt = 1; ; attempt++) {
    const outcome = await launchFleet(deps.ctx, resolved, current, profile.name);
    if (!profileNotVisible(outcome)) return outcome;
    if (!profile.managed)
      throw new FatalCloudError(
        `${where}: instance profile ${profile.name} (spec.instanceProfile) not found by EC2`,
      );
    if (attempt >= PROFILE_PROPAGATION.attempts)
      throw new RetryableCloudError(
        `${where}: instance profile ${profile.name} not yet visible to EC2 after ${attempt} launches (IAM propagation)`,
      );
    deps.logger?.info('instance profile not yet visible to EC2; launching again', {
      profile: profile.name,
      attempt,
    });
    await deps.sleep(backoffDelay(PROFILE_PROPAGATION, attempt, Math.random));
    current = {
      ...current,
      token: clientToken(deps.ctx.config.clusterName, 'profile-retry', [
        current.token,
        outcome.fleetId ?? String(attempt),
      ]),
    };
  }
}
