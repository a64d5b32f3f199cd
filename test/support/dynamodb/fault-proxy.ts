// An HTTP proxy on 127.0.0.1 (port 0) in front of a local DynamoDB that injects faults by operation:
// apply the request but withhold the response (the client times out and retries), or answer with an error.
import { startWireProxy, type WireAction, type WireRequest } from '../wire-proxy.ts';

export type Fault =
  /** Forward the request (the server applies it), then never answer: the client's request timeout fires. */
  | { readonly kind: 'withhold-response' }
  /** Answer without forwarding, as DynamoDB does for throttling and validation errors. */
  | { readonly kind: 'error'; readonly status: number; readonly type: string; readonly message?: string };

interface Rule {
  readonly operation: string;
  readonly fault: Fault;
  remaining: number;
}

export interface FaultProxy {
  readonly endpoint: string;
  /** Apply `fault` to the next `times` requests of `operation` (e.g. UpdateItem). */
  inject(operation: string, fault: Fault, times?: number): void;
  /** Drops every fault not yet applied. */
  clearFaults(): void;
  /** Operations that reached the proxy, in order, each with the fault applied (if any). */
  readonly log: { operation: string; fault?: Fault['kind'] }[];
  stop(): Promise<void>;
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const rules: Rule[] = [];
  const log: FaultProxy['log'] = [];
  const decide = ({ target: operation }: WireRequest): WireAction => {
    const rule = rules.find((r) => r.operation === operation && r.remaining > 0);
    if (rule) rule.remaining -= 1;
    log.push({ operation, ...(rule ? { fault: rule.fault.kind } : {}) });
    if (!rule) return { kind: 'forward' };
    if (rule.fault.kind === 'withhold-response') return { kind: 'withhold' };
    return {
      kind: 'answer',
      status: rule.fault.status,
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': rule.fault.type },
      body: JSON.stringify({
        __type: `com.amazonaws.dynamodb.v20120810#${rule.fault.type}`,
        message: rule.fault.message ?? 'injected by the fault proxy',
      }),
    };
  };
  const proxy = await startWireProxy(upstream, decide);
  return {
    endpoint: proxy.endpoint,
    log,
    inject: (operation, fault, times = 1) => rules.push({ operation, fault, remaining: times }),
    clearFaults: () => void rules.splice(0),
    stop: () => proxy.stop(),
  };
}
