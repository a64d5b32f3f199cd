// What the EC2 adapter's helpers share: the client, the settings, and `call`, which retries
// throttling and translates errors into the CloudProvider contract.
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { Ec2ProviderConfig } from '../../config/aws-ec2.ts';

export type Call = <T>(what: string, op: () => Promise<T>) => Promise<T>;

export interface Ec2Context {
  readonly ec2: EC2Client;
  readonly config: Ec2ProviderConfig;
  readonly call: Call;
}
