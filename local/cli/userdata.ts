// `kraftsman userdata`: the user data (EC2) or startup-script (Compute Engine) a launch of one NodePool on one
// instance type would send, rendered by the launchers' own renderer, the join token's secret redacted
// (docs/contract.md#kraftsman-userdata, docs/mechanisms/bootstrap.md#debugging-a-join).
import type { InstanceTypeSpec } from '../../shared/model/catalog.ts';
import { bootstrapFamily, joinProblem } from '../../shared/model/join-readiness.ts';
import { cloudOfNodeClassRef, type NodeClass } from '../../shared/model/nodeclass.ts';
import type { NodeClaim } from '../../shared/model/nodeclaim.ts';
import type { NodePool } from '../../shared/model/nodepool.ts';
import { BootstrapError, renderUserData } from '../../shared/provisioning/bootstrap.ts';
import { renderStartupScript } from '../../shared/provisioning/gce-startup.ts';
import { GceImageError, imageKeyOf, resolveGceImage } from '../../shared/model/gce-images.ts';
import type { Io } from './command-context.ts';
import { USERDATA_USAGE } from './command-help.ts';
import { eachFlag, InputError, unexpectedArgument } from './errors.ts';
import { readCatalog, readObjects } from './read-input.ts';

interface UserdataArgs {
  readonly files: string[];
  recursive?: boolean;
  instanceType?: string;
  nodePool?: string;
  cluster?: string;
  zone?: string;
  catalog?: string;
}

function parse(argv: readonly string[]): UserdataArgs {
  const a: UserdataArgs = { files: [] };
  eachFlag(argv, USERDATA_USAGE, (flag, value, arg) => {
    if (flag === '-f' || flag === '--filename') a.files.push(value());
    else if (flag === '--instance-type') a.instanceType = value();
    else if (flag === '--nodepool') a.nodePool = value();
    else if (flag === '--cluster') a.cluster = value();
    else if (flag === '--zone') a.zone = value();
    else if (flag === '--catalog') a.catalog = value();
    else if (flag === '-R' || flag === '--recursive') a.recursive = true;
    else throw unexpectedArgument(arg, USERDATA_USAGE);
  });
  if (a.files.length === 0)
    throw new InputError(`userdata needs -f FILE (a node class and a NodePool)\n${USERDATA_USAGE}`);
  if (!a.instanceType) throw new InputError(`userdata needs --instance-type TYPE\n${USERDATA_USAGE}`);
  return a;
}

function pickPool(pools: readonly NodePool[], name: string | undefined): NodePool {
  const names = pools.map((p) => p.metadata.name);
  if (name) {
    const p = pools.find((x) => x.metadata.name === name);
    if (!p)
      throw new InputError(
        `--nodepool ${name}: no such NodePool in the input (${names.join(', ') || 'none'})`,
      );
    return p;
  }
  if (pools.length !== 1)
    throw new InputError(
      pools.length === 0
        ? 'the input holds no NodePool: give the NodePool whose nodes you want to see (-f nodepool.yaml)'
        : `the input holds ${pools.length} NodePools (${names.join(', ')}): choose one with --nodepool NAME`,
    );
  return pools[0] as NodePool;
}

/** The NodeClaim a launch of this pool on exactly this instance type (and zone) would carry. */
function claimOf(pool: NodePool, instanceType: string, zone: string | undefined): NodeClaim {
  const t = pool.spec.template;
  const fixed = new Set([
    'node.kubernetes.io/instance-type',
    ...(zone ? ['topology.kubernetes.io/zone'] : []),
  ]);
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: `${pool.metadata.name}-userdata`,
      labels: { ...(t.metadata?.labels ?? {}), 'karpenter.sh/nodepool': pool.metadata.name },
    },
    spec: {
      nodeClassRef: t.spec.nodeClassRef,
      requirements: [
        ...t.spec.requirements.filter((r) => !fixed.has(r.key)),
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [instanceType] },
        ...(zone ? [{ key: 'topology.kubernetes.io/zone', operator: 'In' as const, values: [zone] }] : []),
      ],
      ...(t.spec.taints ? { taints: t.spec.taints } : {}),
      ...(t.spec.startupTaints ? { startupTaints: t.spec.startupTaints } : {}),
    },
  } as NodeClaim;
}

/** The token's secret is never printed: the id of a named Secret is, a per-launch token's is not known yet. */
function redactedToken(nc: NodeClass): { id: string; secret: string } {
  const ref = nc.spec.bootstrap?.joinTokenSecretRef?.name;
  const id = ref?.startsWith('bootstrap-token-')
    ? ref.slice('bootstrap-token-'.length)
    : '<issued-per-launch>';
  return { id, secret: '<redacted>' };
}

export async function userdata(argv: readonly string[], io: Io): Promise<number> {
  const a = parse(argv);
  const recognized = await readObjects(a.files, io.stdin, a.recursive === true);
  const pool = pickPool(recognized.objects.nodePools, a.nodePool);
  const ref = pool.spec.template.spec.nodeClassRef;
  const cloud = cloudOfNodeClassRef(ref);
  const nc = recognized.objects.nodeClasses.find((c) => c.kind === ref.kind && c.metadata.name === ref.name);
  if (!cloud || !nc)
    throw new InputError(`NodePool ${pool.metadata.name}: its ${ref.kind} ${ref.name} is not in the input`);
  const problem = joinProblem(nc);
  if (problem) throw new InputError(`${nc.kind} ${nc.metadata.name}: ${problem}`);
  // The built-in catalog expands just this one type (in every region), not the whole world.
  const found: InstanceTypeSpec | undefined = a.catalog
    ? (await readCatalog(a.catalog, io.stdin)).instanceTypes.find((t) => t.name === a.instanceType)
    : (await import('../../shared/catalog/builtin.ts')).builtinType(a.instanceType as string);
  const type = found?.cloud === cloud ? found : undefined;
  if (!type)
    throw new InputError(
      `unknown instance type ${JSON.stringify(a.instanceType)}: not in the ${a.catalog ? `catalog ${a.catalog}` : 'built-in catalog'} for ${cloud}`,
    );
  if (a.zone && !type.offerings.some((o) => o.zone === a.zone))
    throw new InputError(`instance type ${type.name} is not offered in zone ${a.zone}`);
  const claim = claimOf(pool, type.name, a.zone);
  const family = bootstrapFamily(nc).family;
  let text: string;
  let image = '';
  try {
    const input = {
      cluster: a.cluster ?? 'cluster',
      claim,
      nodeClass: nc,
      ...(family === 'Kubeadm' ? { join: redactedToken(nc) } : {}),
    };
    if (nc.kind === 'GCENodeClass') {
      // The image this machine type boots decides whether the script installs the GPU driver (gce-startup.ts).
      const resolved = resolveGceImage(nc, imageKeyOf(type));
      image = `, image ${resolved.image}, GPU driver: ${resolved.driver}`;
      text = renderStartupScript({ ...input, image: resolved });
    } else text = renderUserData(input);
  } catch (err: unknown) {
    if (err instanceof BootstrapError || err instanceof GceImageError)
      throw new InputError(err.message, { cause: err });
    throw err;
  }
  for (const w of recognized.warnings) io.stderr.write(`warning: ${w}\n`);
  if (!a.cluster) io.stderr.write('warning: no --cluster given: the cluster name is shown as "cluster"\n');
  io.stderr.write(
    `# ${cloud === 'aws' ? 'EC2 user data' : 'Compute Engine startup-script'} of a ${type.name} for NodePool ${pool.metadata.name} (${nc.kind} ${nc.metadata.name}, ${family}${image})${family === 'Kubeadm' ? '; the join token secret is redacted' : ''}\n`,
  );
  io.stdout.write(text);
  return 0;
}
