// Keep-alive connections to the API server. client-node's KubeConfig hands every request a new http(s).Agent
// (applyToHTTPSOptions, applySecurityAuthentication), so every call opened its own connection — a TCP and,
// against a real cluster, a TLS handshake. sendBounded swaps that agent for a pooled keep-alive one built with
// the same TLS options, so the calls of one invocation share a few connections.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/**
 * How long an idle connection is kept: under the 5 s after which a Node server (the emulator) closes one, so a
 * request never races the server's close; kube-apiserver keeps idle connections longer. A Lambda frozen
 * between invocations does not carry idle connections over: they would be 60 s old.
 */
export const IDLE_SOCKET_MS = 4_000;
/** Connections per pool, as the AWS SDK's default agents allow. */
export const MAX_SOCKETS = 50;
/** Distinct TLS identities pooled (a rotated client certificate is a new one); the oldest pool is closed. */
const MAX_POOLS = 8;

const pools = new Map<string, HttpAgent>();

const fingerprint = (v: unknown): unknown =>
  Buffer.isBuffer(v) ? `base64:${v.toString('base64')}` : Array.isArray(v) ? v.map(fingerprint) : v;

/** The agent's own options (TLS material, servername, verification) as a key: equal options share a pool. */
function keyOf(agent: HttpAgent, tls: boolean): string {
  const options = (agent as HttpAgent & { options?: Record<string, unknown> }).options ?? {};
  // The KubeConfig's two ways of building an agent (typed calls, raw LIST pages) set different keys, the
  // missing ones as undefined: only the options given count.
  const entries = Object.keys(options)
    .filter((k) => options[k] !== undefined)
    .sort()
    .map((k) => [k, fingerprint(options[k])]);
  return `${tls ? 'https' : 'http'}|${JSON.stringify(entries)}`;
}

/**
 * The pooled keep-alive agent standing in for `agent`, or `agent` itself when it is anything but a plain
 * http(s).Agent (a proxy agent keeps its own connections).
 */
export function pooledAgent(agent: unknown): unknown {
  if (!(agent instanceof HttpAgent)) return agent;
  const tls = agent.constructor === HttpsAgent;
  if (!tls && agent.constructor !== HttpAgent) return agent;
  const key = keyOf(agent, tls);
  let pooled = pools.get(key);
  if (!pooled) {
    const options = (agent as HttpAgent & { options?: Record<string, unknown> }).options ?? {};
    const settings = { ...options, keepAlive: true, timeout: IDLE_SOCKET_MS, maxSockets: MAX_SOCKETS };
    pooled = tls ? new HttpsAgent(settings) : new HttpAgent(settings);
    pools.set(key, pooled);
    if (pools.size > MAX_POOLS) {
      const [oldest, old] = pools.entries().next().value as [string, HttpAgent];
      pools.delete(oldest);
      old.destroy();
    }
  }
  return pooled;
}
