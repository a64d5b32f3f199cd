// A crash at the wire: HTTP proxies in front of the kube emulator, DynamoDB Local and the EC2 emulator that
// belong to one "container". Armed with a trigger, the container dies at that request — after the server
// applied it (the answer is lost) or before it reached the server — and from then on every request of that
// container fails and every open stream is cut, as if its process were gone. Nothing is mocked: the
// container's real SDK clients talk to the real servers through these sockets.
import { startWireProxy, type WireAction, type WireProxy, type WireRequest } from '../wire-proxy.ts';

export interface Trigger {
  /** Which proxy: 'kube', 'dynamodb' or 'ec2'. */
  readonly server: 'kube' | 'dynamodb' | 'ec2';
  readonly matches: (r: WireRequest) => boolean;
  /** The n-th matching request (1 = the first). */
  readonly nth?: number;
  /** 'after': the server applies the request and the answer is lost; 'before': it never arrives. */
  readonly when: 'after' | 'before';
}

export interface CrashableContainer {
  readonly endpoints: { readonly kube: string; readonly dynamodb: string; readonly ec2: string };
  arm(trigger: Trigger): void;
  /** True once the armed trigger fired. */
  readonly crashed: boolean;
  close(): Promise<void>;
}

export async function startCrashableContainer(upstreams: {
  kube: string;
  dynamodb: string;
  ec2: string;
}): Promise<CrashableContainer> {
  let trigger: Trigger | undefined;
  let seen = 0;
  let dead = false;
  let proxies: WireProxy[] = [];
  const die = () => {
    dead = true;
    for (const p of proxies) p.cutOpen();
  };
  const fires = (server: Trigger['server'], r: WireRequest): boolean => {
    if (dead || !trigger || trigger.server !== server || !trigger.matches(r)) return false;
    seen += 1;
    return seen === (trigger.nth ?? 1);
  };
  const decide =
    (server: Trigger['server']) =>
    (r: WireRequest): WireAction => {
      // A dead container's requests go nowhere: 403 is an answer no client retries.
      if (dead)
        return { kind: 'answer', status: 403, headers: { 'content-type': 'text/plain' }, body: 'crashed' };
      if (!fires(server, r)) return { kind: 'forward' };
      if (trigger?.when === 'before') {
        die();
        return { kind: 'cut' };
      }
      // Applied by the server; the answer dies with the container.
      return { kind: 'withhold', applied: die };
    };
  proxies = await Promise.all(
    (['kube', 'dynamodb', 'ec2'] as const).map((server) => startWireProxy(upstreams[server], decide(server))),
  );
  const [kube, dynamodb, ec2] = proxies as [WireProxy, WireProxy, WireProxy];
  return {
    endpoints: { kube: kube.endpoint, dynamodb: dynamodb.endpoint, ec2: ec2.endpoint },
    arm: (t) => {
      trigger = t;
      seen = 0;
    },
    get crashed() {
      return dead;
    },
    close: async () => {
      die();
      await Promise.all(proxies.map((p) => p.stop()));
    },
  };
}
