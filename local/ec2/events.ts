// EventBridge events the EC2 emulator emits, shaped as AWS sends them: spot interruption warnings,
// rebalance recommendations and instance state changes.
import type { Ec2World, EmuInstance } from './world.ts';

export interface Ec2Event {
  readonly version: '0';
  readonly id: string;
  readonly 'detail-type': string;
  readonly source: 'aws.ec2';
  readonly account: string;
  readonly time: string;
  readonly region: string;
  readonly resources: readonly string[];
  readonly detail: Record<string, string>;
}

function event(
  world: Ec2World,
  i: EmuInstance,
  detailType: string,
  detail: Record<string, string>,
): Ec2Event {
  return {
    version: '0',
    id: world.nextId('evt'),
    'detail-type': detailType,
    source: 'aws.ec2',
    account: '123456789012',
    time: world.now().toISOString(),
    region: world.region,
    resources: [`arn:aws:ec2:${world.region}:123456789012:instance/${i.instanceId}`],
    detail: { 'instance-id': i.instanceId, ...detail },
  };
}

export const spotInterruptionWarning = (w: Ec2World, i: EmuInstance): Ec2Event =>
  event(w, i, 'EC2 Spot Instance Interruption Warning', { 'instance-action': 'terminate' });
export const rebalanceRecommendation = (w: Ec2World, i: EmuInstance): Ec2Event =>
  event(w, i, 'EC2 Instance Rebalance Recommendation', {});
export const stateChange = (w: Ec2World, i: EmuInstance): Ec2Event =>
  event(w, i, 'EC2 Instance State-change Notification', { state: i.state });
