// Bottlerocket user data: TOML (read back with smol-toml) whose settings.kubernetes carry the join and the claim's
// labels and taints, merged into the user's settings as Karpenter merges them (bottlerocket.go).
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { renderUserData } from '../../../../shared/provisioning/bootstrap.ts';
import { CA_BUNDLE, claim, ec2Class } from './fixtures.ts';

const render = (spec: Record<string, unknown>): Record<string, unknown> =>
  parse(renderUserData({ cluster: 'prod', claim: claim(), nodeClass: ec2Class(spec) })) as Record<
    string,
    unknown
  >;

const KRAFTSMAN_K8S = {
  'cluster-name': 'prod',
  'api-server': 'https://api.prod.example.internal:6443',
  'cluster-certificate': CA_BUNDLE,
  'max-pods': 110,
  'node-labels': {
    'karpenter.sh/nodepool': 'gpu',
    'node.kubernetes.io/instance-type': 'g5.xlarge',
    team: 'ml',
  },
  'node-taints': {
    'nvidia.com/gpu': ['true:NoSchedule'],
    'example.com/warming': [':NoSchedule'],
    'karpenter.sh/unregistered': [':NoExecute'],
  },
};

describe('Bottlerocket user data', () => {
  it('is TOML with the cluster, its CA, max-pods and the NodeRestriction-safe labels and taints', () => {
    expect(render({ amiSelectorTerms: [{ alias: 'bottlerocket@latest' }] })).toEqual({
      settings: { kubernetes: KRAFTSMAN_K8S },
    });
  });

  it("keeps the user's keys, overwrites those kraftsman owns, replaces node-taints, turns should-wait off", () => {
    const user = [
      '# site settings',
      '[settings.kubernetes]',
      'cluster-name = "someone-else"',
      '"max-pods" = 29',
      'image-gc-high-threshold-percent = "85"',
      '[settings.kubernetes.node-labels]',
      'team = "theirs"',
      '"example.com/rack" = "r1"',
      '[settings.kubernetes.node-taints]',
      '"dedicated" = ["x:NoSchedule"]',
      '[settings.autoscaling]',
      'should-wait = true',
      '[settings.host-containers.admin]',
      'enabled = true',
      'superpowered = true',
      '[settings.kernel.sysctl]',
      '"vm.max_map_count" = "262144"',
      'ports = [1, 2, { a = "b" }]',
    ].join('\n');
    expect(render({ amiFamily: 'Bottlerocket', userData: user })).toEqual({
      settings: {
        kubernetes: {
          ...KRAFTSMAN_K8S,
          'image-gc-high-threshold-percent': '85',
          'node-labels': { ...KRAFTSMAN_K8S['node-labels'], 'example.com/rack': 'r1' },
        },
        autoscaling: { 'should-wait': false },
        'host-containers': { admin: { enabled: true, superpowered: true } },
        kernel: { sysctl: { 'vm.max_map_count': '262144', ports: [1, 2, { a: 'b' }] } },
      },
    });
  });

  it('refuses TOML it cannot read back faithfully, naming the line', () => {
    expect(() => render({ amiFamily: 'Bottlerocket', userData: '[settings]\nmotd = """\nhi\n"""' })).toThrow(
      'EC2NodeClass gpu: spec.userData: TOML line 2: multi-line strings are not supported',
    );
    expect(() => render({ amiFamily: 'Bottlerocket', userData: '[[settings.x]]\n' })).toThrow(
      /line 1: arrays of tables/,
    );
    expect(() => render({ amiFamily: 'Bottlerocket', userData: 'a = 1\na = 2\n' })).toThrow(
      /line 2: key a defined twice/,
    );
  });
});
