// A local stand-in for Google's token endpoints of workload identity federation: STS's token exchange (an AWS
// GetCallerIdentity request, signed with the function's AWS credentials, for a federated token) and IAM
// Credentials' generateAccessToken (that token for the service account's). It records what it was sent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StsCall {
  readonly path: string;
  readonly form?: Record<string, string>;
  readonly authorization?: string;
}

export interface GoogleSts {
  readonly url: string;
  readonly calls: readonly StsCall[];
  close(): Promise<void>;
}

export const FEDERATED_TOKEN = 'federated-token-from-sts';
export const ACCESS_TOKEN = 'service-account-token';

export function startGoogleSts(): Promise<GoogleSts> {
  const calls: StsCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = String(req.url);
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && path === '/v1/token') {
        const form = Object.fromEntries(new URLSearchParams(text));
        calls.push({ path, form });
        if (form.grant_type !== 'urn:ietf:params:oauth:grant-type:token-exchange')
          return reply(400, { error: 'invalid_grant', error_description: `grant_type ${form.grant_type}` });
        return reply(200, {
          access_token: FEDERATED_TOKEN,
          issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          token_type: 'Bearer',
          expires_in: 3600,
        });
      }
      if (
        req.method === 'POST' &&
        /^\/v1\/projects\/-\/serviceAccounts\/[^/]+:generateAccessToken$/.test(path)
      ) {
        calls.push({
          path,
          ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        });
        if (req.headers.authorization !== `Bearer ${FEDERATED_TOKEN}`)
          return reply(401, { error: { code: 401, message: 'not the federated token' } });
        return reply(200, {
          accessToken: ACCESS_TOKEN,
          expireTime: new Date(Date.now() + 3_600_000).toISOString(),
        });
      }
      calls.push({ path });
      return reply(404, { error: { code: 404, message: `no route ${req.method} ${path}` } });
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        calls,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
