// Error names are unique across the ports: cloudErrorOf matches by name along `cause`, so a Kubernetes
// 404 (the Cluster port's ObjectNotFoundError) anywhere in a chain must not read as a missing instance.
import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { toClusterError } from '../../../shared/adapters/kube/errors.ts';
import {
  CLOUD_ERROR_NAMES,
  InstanceNotFoundError,
  cloudErrorOf,
  isRetryableCloudError,
} from '../../../shared/ports/cloud-provider/errors.ts';
import { ObjectNotFoundError } from '../../../shared/ports/cluster/errors.ts';

/** What @kubernetes/client-node throws for a 404: an ApiException with the Status body. */
const kube404 = (): Error =>
  new ApiException(
    404,
    'HTTP-Code: 404',
    JSON.stringify({ kind: 'Status', code: 404, reason: 'NotFound', message: 'nodeclaims "c1" not found' }),
    {},
  );

describe('cloud and cluster error names', () => {
  it('does not read a Kubernetes 404 in a cause chain as a cloud InstanceNotFoundError', () => {
    const translated = toClusterError(kube404(), { kind: 'NodeClaim', name: 'c1' });
    expect(translated).toBeInstanceOf(ObjectNotFoundError);
    const chain = new Error('interruption failed', { cause: new Error('annotate', { cause: translated }) });
    expect(cloudErrorOf(chain)).toBeUndefined();
    expect(isRetryableCloudError(chain)).toBe(false);
  });

  it('still finds a missing instance behind a cluster error further down the chain', () => {
    const missing = new InstanceNotFoundError('EC2 instance i-0abc not found', 'aws:///us-east-1a/i-0abc');
    const chain = new ObjectNotFoundError({ kind: 'Node', name: 'n1' }, { cause: missing });
    expect(cloudErrorOf(chain)).toBe(missing);
  });

  it('gives every cloud contract error a name no Cluster error uses', () => {
    const clusterNames = [
      'ClusterError',
      'ConflictError',
      'ObjectNotFoundError',
      'AlreadyExistsError',
      'InvalidObjectError',
      'ApiError',
    ];
    expect(CLOUD_ERROR_NAMES.filter((n) => clusterNames.includes(n))).toEqual([]);
    expect(new ObjectNotFoundError({ kind: 'Pod', name: 'p', namespace: 'ml' }).name).toBe(
      'ObjectNotFoundError',
    );
  });
});
