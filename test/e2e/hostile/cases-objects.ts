// Objects the Kubernetes API server refuses: quantities, container resources, names, namespaces, label keys
// and values, timestamps, PDBs, topology spread, tolerations, node affinity. Each exits 2 naming file,
// object and field.
import { inProcessWhere, refused, type HostileCase } from './cases.ts';
import { daemonSet, node, pdb, pod, withField, type Obj, type Path } from './objects.ts';

const REQ: Path = ['spec', 'containers', 0, 'resources', 'requests'];
const resources = (requests: Obj, limits?: Obj): Obj =>
  withField(pod(), ['spec', 'containers', 0, 'resources'], limits ? { requests, limits } : { requests });
const podRef = 'Pod default/web-0';
const c0 = 'spec.containers[0]';

const podWith = (path: Path, value: unknown): Obj => withField(pod(), path, value);

const cases: HostileCase[] = [
  refused(
    'a 200,000-digit quantity',
    [podWith([...REQ, 'cpu'], '9'.repeat(200_000))],
    podRef,
    `${c0}.resources.requests.cpu`,
    /longer than 64 characters|invalid quantity/,
  ),
  refused(
    'a quantity with two dots',
    [podWith([...REQ, 'cpu'], '1.5.5')],
    podRef,
    `${c0}.resources.requests.cpu`,
    /invalid quantity/,
  ),
  refused(
    'a quantity exponent of 999',
    [podWith([...REQ, 'memory'], '1e999')],
    podRef,
    `${c0}.resources.requests.memory`,
    /invalid quantity/,
  ),
  refused(
    'a quantity with a space',
    [podWith([...REQ, 'cpu'], ' 1')],
    podRef,
    `${c0}.resources.requests.cpu`,
    /invalid quantity/,
  ),
  refused(
    'a quantity with an unknown suffix',
    [podWith([...REQ, 'memory'], '1GB')],
    podRef,
    `${c0}.resources.requests.memory`,
    /invalid quantity/,
  ),
  refused(
    'a negative request',
    [podWith([...REQ, 'cpu'], '-1')],
    podRef,
    `${c0}.resources.requests.cpu`,
    /must be non-negative/,
  ),
  refused(
    'half a GPU',
    [resources({ 'nvidia.com/gpu': '0.5' }, { 'nvidia.com/gpu': '0.5' })],
    podRef,
    `${c0}.resources.requests.nvidia.com/gpu`,
    /must be an integer/,
  ),
  refused(
    'a GPU in milli-units',
    [resources({ 'nvidia.com/gpu': '500m' }, { 'nvidia.com/gpu': '500m' })],
    podRef,
    `${c0}.resources.requests.nvidia.com/gpu`,
    /must be an integer/,
  ),
  refused(
    'a GPU request below its limit',
    [resources({ 'nvidia.com/gpu': '1' }, { 'nvidia.com/gpu': '2' })],
    podRef,
    `${c0}.resources.requests.nvidia.com/gpu`,
    /must be equal to nvidia\.com\/gpu limit of 2/,
  ),
  refused(
    'a GPU request without a limit',
    [resources({ 'nvidia.com/gpu': '1' })],
    podRef,
    `${c0}.resources.limits.nvidia.com/gpu`,
    /must be set/,
  ),
  refused(
    'a CPU limit below its request',
    [resources({ cpu: '2' }, { cpu: '1' })],
    podRef,
    `${c0}.resources.requests.cpu`,
    /must be less than or equal to cpu limit of 1/,
  ),
  refused(
    'a memory limit below its request in an init container',
    [
      withField(
        pod(),
        ['spec', 'initContainers'],
        [{ name: 'i', resources: { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } } }],
      ),
    ],
    podRef,
    'spec.initContainers[0].resources.requests.memory',
    /must be less than or equal to memory limit/,
  ),
  refused(
    'hugepages without a limit',
    [resources({ 'hugepages-2Mi': '4Mi' })],
    podRef,
    `${c0}.resources.limits.hugepages-2Mi`,
    /must be set/,
  ),
  refused(
    'a resource name without a domain',
    [resources({ gpu: '1' })],
    podRef,
    `${c0}.resources.requests.gpu`,
    /must be a standard resource for containers/,
  ),
  refused(
    'half a GPU in a DaemonSet template',
    [
      withField(daemonSet(), ['spec', 'template', 'spec', 'containers', 0, 'resources'], {
        requests: { 'nvidia.com/gpu': '0.5' },
        limits: { 'nvidia.com/gpu': '0.5' },
      }),
    ],
    'DaemonSet kube-system/agent',
    'spec.template.spec.containers[0].resources.requests.nvidia.com/gpu',
    /must be an integer/,
  ),
  refused(
    'an upper-case pod name',
    [pod('Web-0')],
    'Pod default/Web-0',
    'metadata.name',
    /RFC 1123 subdomain/,
  ),
  refused(
    'an underscore in a pod name',
    [pod('web_0')],
    'Pod default/web_0',
    'metadata.name',
    /RFC 1123 subdomain/,
  ),
  refused(
    'a pod name of 254 characters',
    [pod('a'.repeat(254))],
    `Pod default/"${'a'.repeat(77)}..."`,
    'metadata.name',
    /no more than 253 characters/,
  ),
  refused(
    'a pod name of 100,000 characters',
    [pod('a'.repeat(100_000))],
    `Pod default/"${'a'.repeat(77)}..."`,
    'metadata.name',
    /no more than 253 characters/,
  ),
  refused('an empty pod name', [pod('')], 'Pod default/""', 'metadata.name', /is required/),
  refused(
    'a dot in a namespace',
    [pod('web-0', 'team.a')],
    'Pod team.a/web-0',
    'metadata.namespace',
    /RFC 1123 label/,
  ),
  refused(
    'a namespace of 64 characters',
    [pod('web-0', 'n'.repeat(64))],
    `Pod ${'n'.repeat(64)}/web-0`,
    'metadata.namespace',
    /no more than 63 characters/,
  ),
  refused(
    'a Namespace object named with a dot',
    [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a.b' } }],
    'Namespace a.b',
    'metadata.name',
    /RFC 1123 label/,
  ),
  refused('a slash in a node name', [node('rack/1')], 'Node rack/1', 'metadata.name', /RFC 1123 subdomain/),
  refused(
    'pod names that collide once joined',
    [pod('b/c', 'a'), pod('c', 'a/b')],
    'Pod a/b/c',
    'metadata.name',
    /RFC 1123 subdomain/,
  ),
  refused(
    'a label key with two slashes',
    [podWith(['metadata', 'labels'], { 'a/b/c': 'x' })],
    podRef,
    'metadata.labels.a/b/c',
    /qualified name/,
  ),
  refused(
    'an upper-case label key prefix',
    [podWith(['metadata', 'labels'], { 'Example.com/team': 'x' })],
    podRef,
    'metadata.labels.Example.com/team',
    /prefix part a lowercase RFC 1123 subdomain/,
  ),
  refused(
    'a label key name of 64 characters',
    [podWith(['metadata', 'labels'], { ['k'.repeat(64)]: 'x' })],
    podRef,
    `metadata.labels.${'k'.repeat(64)}`,
    /name part must be no more than 63 characters/,
  ),
  refused(
    'a label value of 64 characters',
    [podWith(['metadata', 'labels'], { app: 'v'.repeat(64) })],
    podRef,
    'metadata.labels.app',
    /must be no more than 63 characters/,
  ),
  refused(
    'a label value with a space',
    [podWith(['metadata', 'labels'], { app: 'my app' })],
    podRef,
    'metadata.labels.app',
    /a valid label must be an empty string/,
  ),
  refused(
    'an annotation key with a space',
    [podWith(['metadata', 'annotations'], { 'bad key': 'x' })],
    podRef,
    'metadata.annotations.bad key',
    /name part must consist of/,
  ),
  refused(
    'annotations over 256 KiB',
    [podWith(['metadata', 'annotations'], { a: 'x'.repeat(200_000), b: 'y'.repeat(70_000) })],
    podRef,
    'metadata.annotations',
    /may not exceed 262144 bytes/,
  ),
  refused(
    'a nodeSelector key that is not a label key',
    [podWith(['spec', 'nodeSelector'], { '-zone': 'a' })],
    podRef,
    'spec.nodeSelector.-zone',
    /qualified name|name part/,
  ),
  refused(
    'a matchLabels value that is not a label value',
    [withField(pdb(), ['spec', 'selector', 'matchLabels', 'app'], 'we b')],
    'PodDisruptionBudget default/web',
    'spec.selector.matchLabels.app',
    /a valid label/,
  ),
  refused(
    'a creationTimestamp of "1"',
    [podWith(['metadata', 'creationTimestamp'], '1')],
    podRef,
    'metadata.creationTimestamp',
    /RFC 3339/,
  ),
  refused(
    'a creationTimestamp of "Tuesday, 1 December 2026"',
    [podWith(['metadata', 'creationTimestamp'], 'Tuesday, 1 December 2026')],
    podRef,
    'metadata.creationTimestamp',
    /RFC 3339/,
  ),
  refused(
    'a creationTimestamp on 30 February',
    [podWith(['metadata', 'creationTimestamp'], '2026-02-30T00:00:00Z')],
    podRef,
    'metadata.creationTimestamp',
    /RFC 3339/,
  ),
  refused(
    'a creationTimestamp without a zone',
    [podWith(['metadata', 'creationTimestamp'], '2026-09-01T00:00:00')],
    podRef,
    'metadata.creationTimestamp',
    /RFC 3339/,
  ),
  refused(
    'a startTime in lower case',
    [podWith(['status', 'startTime'], '2026-09-01t00:00:00z')],
    podRef,
    'status.startTime',
    /RFC 3339/,
  ),
  refused(
    'a PDB minAvailable of 150%',
    [withField(withField(pdb(), ['spec', 'maxUnavailable'], undefined), ['spec', 'minAvailable'], '150%')],
    'PodDisruptionBudget default/web',
    'spec.minAvailable',
    /must not be greater than 100%/,
  ),
  refused(
    'a PDB maxUnavailable of 101%',
    [withField(pdb(), ['spec', 'maxUnavailable'], '101%')],
    'PodDisruptionBudget default/web',
    'spec.maxUnavailable',
    /must not be greater than 100%/,
  ),
  refused(
    'a PDB maxUnavailable as a bare string',
    [withField(pdb(), ['spec', 'maxUnavailable'], '5')],
    'PodDisruptionBudget default/web',
    'spec.maxUnavailable',
    /percentage/,
  ),
  refused(
    'a PDB with both minAvailable and maxUnavailable',
    [withField(pdb(), ['spec', 'minAvailable'], 1)],
    'PodDisruptionBudget default/web',
    'spec.maxUnavailable',
    /cannot both be set/,
  ),
  refused(
    'minDomains with ScheduleAnyway',
    [
      podWith(
        ['spec', 'topologySpreadConstraints'],
        [
          {
            maxSkew: 1,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'ScheduleAnyway',
            minDomains: 3,
          },
        ],
      ),
    ],
    podRef,
    'spec.topologySpreadConstraints[0].minDomains',
    /can only be used with whenUnsatisfiable: DoNotSchedule/,
  ),
  refused(
    'two spread constraints on one key and action',
    [
      podWith(
        ['spec', 'topologySpreadConstraints'],
        [0, 1].map(() => ({
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule',
        })),
      ),
    ],
    podRef,
    'spec.topologySpreadConstraints[1].topologyKey',
    /duplicate constraint/,
  ),
  refused(
    'a maxSkew of 0',
    [
      podWith(
        ['spec', 'topologySpreadConstraints'],
        [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
      ),
    ],
    podRef,
    'spec.topologySpreadConstraints[0].maxSkew',
    /./,
  ),
  refused(
    'a toleration Exists with a value',
    [podWith(['spec', 'tolerations'], [{ key: 'nvidia.com/gpu', operator: 'Exists', value: 'true' }])],
    podRef,
    'spec.tolerations[0].value',
    /must be empty when operator is Exists/,
  ),
  refused(
    'a toleration with no key and Equal',
    [podWith(['spec', 'tolerations'], [{ operator: 'Equal', value: 'x' }])],
    podRef,
    'spec.tolerations[0].operator',
    /must be Exists when key is empty/,
  ),
  refused(
    'tolerationSeconds with NoSchedule',
    [
      podWith(
        ['spec', 'tolerations'],
        [{ key: 'a', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }],
      ),
    ],
    podRef,
    'spec.tolerations[0].effect',
    /must be NoExecute/,
  ),
  refused(
    'a toleration with an unknown operator',
    [podWith(['spec', 'tolerations'], [{ key: 'a', operator: 'Gt', value: '1' }])],
    podRef,
    'spec.tolerations[0].operator',
    /./,
  ),
  refused(
    "node affinity with Karpenter's Gte",
    [
      podWith(
        [
          'spec',
          'affinity',
          'nodeAffinity',
          'requiredDuringSchedulingIgnoredDuringExecution',
          'nodeSelectorTerms',
        ],
        [{ matchExpressions: [{ key: 'gpu-count', operator: 'Gte', values: ['2'] }] }],
      ),
    ],
    podRef,
    'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator',
    /Karpenter's/,
  ),
  refused(
    'node affinity In without values',
    [
      podWith(
        [
          'spec',
          'affinity',
          'nodeAffinity',
          'requiredDuringSchedulingIgnoredDuringExecution',
          'nodeSelectorTerms',
        ],
        [{ matchExpressions: [{ key: 'zone', operator: 'In', values: [] }] }],
      ),
    ],
    podRef,
    'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values',
    /must be specified/,
  ),
  refused(
    'a node taint with a bad key',
    [withField(node(), ['spec', 'taints'], [{ key: 'a b', effect: 'NoSchedule' }])],
    'Node node-a',
    'spec.taints[0].key',
    /name part must consist/,
  ),
  refused(
    'a pod with no containers',
    [podWith(['spec', 'containers'], [])],
    podRef,
    'spec.containers',
    /at least one container/,
  ),
  refused(
    'a pod affinity term naming a bad namespace',
    [
      podWith(
        ['spec', 'affinity', 'podAntiAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'],
        [{ topologyKey: 'kubernetes.io/hostname', namespaces: ['Team_A'] }],
      ),
    ],
    podRef,
    'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespaces[0]',
    /RFC 1123 label/,
  ),
];

/** Variants of a rule that another case already runs as a child process: these run in-process (cheaper). */
const VARIANTS = new Set([
  'a quantity with a space',
  'a quantity with an unknown suffix',
  'a GPU in milli-units',
  'hugepages without a limit',
  'an underscore in a pod name',
  'an empty pod name',
  'a namespace of 64 characters',
  'a label key name of 64 characters',
  'a creationTimestamp without a zone',
  'a PDB maxUnavailable as a bare string',
  'a maxSkew of 0',
  'a toleration with an unknown operator',
  'a node taint with a bad key',
  'a pod with no containers',
  'a pod affinity term naming a bad namespace',
]);
export const objectCases: HostileCase[] = inProcessWhere(cases, VARIANTS);
