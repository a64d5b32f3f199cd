// The one handler of launch-aws and launch-gcp (they differ only in their deps.ts): validates the async
// invoke payload, checks it is for this cluster, runs the launch use case and returns its counts.
import { launch, type LaunchCounts, type LaunchDeps, type LaunchSettings } from '../../shared/loop/launch.ts';
import { launchRequestSchema } from '../../shared/loop/launch-request.ts';
import { InvalidEventError, parseEvent } from './events.ts';
import { invocation, parseContext, type InvocationObservability } from './invocation.ts';

export interface LaunchHandlerDeps {
  readonly loop: LaunchDeps;
  readonly settings: LaunchSettings & { readonly clusterName: string };
  readonly obs: InvocationObservability;
}

export function createLaunchHandler(name: string, deps: () => Promise<LaunchHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<LaunchCounts> => {
    const request = parseEvent(launchRequestSchema, event, `${name} payload`);
    const ctx = parseContext(context);
    const d = await deps();
    if (request.fence.cluster !== d.settings.clusterName)
      throw new InvalidEventError(
        `${name} payload: fence.cluster: ${request.fence.cluster} is not this function's cluster ${d.settings.clusterName}`,
      );
    const keys = {
      requestId: ctx.awsRequestId,
      claims: request.claims.join(','),
      ...(request.gang ? { gang: request.gang } : {}),
    };
    return invocation(d.obs, keys, () => launch(d.loop, d.settings, request));
  };
}
