// Test PKI and servers for cluster access: a CA, a server certificate for 127.0.0.1 and a client certificate
// made with the openssl CLI at test time (no key is checked in), an https "API server" that answers
// /api/v1/nodes only to a holder of the token or the client certificate, and a Secrets Manager stand-in
// (JSON 1.1, X-Amz-Target secretsmanager.GetSecretValue) for the real SDK client.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';

const openssl = (dir: string, args: string[]) => promisify(execFile)('openssl', args, { cwd: dir });

export interface Pki {
  readonly caPem: string;
  readonly serverCertPem: string;
  readonly serverKeyPem: string;
  readonly clientCertPem: string;
  readonly clientKeyPem: string;
}

async function signed(dir: string, name: string, subject: string): Promise<void> {
  await openssl(dir, [
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  ]);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '1',
    '-out',
    `${name}.crt`,
    '-extfile',
    `${name}.ext`,
  ]);
}

/** A fresh CA with a server certificate for 127.0.0.1 and a client certificate (CN kraftsman). */
export async function makePki(): Promise<Pki> {
  const dir = mkdtempSync(join(tmpdir(), 'kraftsman-pki-'));
  try {
    await openssl(dir, [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '1',
      '-subj',
      '/CN=kraftsman-test-ca',
    ]);
    writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
    writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
    await signed(dir, 'server', '/CN=127.0.0.1');
    await signed(dir, 'client', '/CN=kraftsman');
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return {
      caPem: read('ca.crt'),
      serverCertPem: read('server.crt'),
      serverKeyPem: read('server.key'),
      clientCertPem: read('client.crt'),
      clientKeyPem: read('client.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Listening {
  readonly url: string;
  readonly requests: number;
  close(): Promise<void>;
}

function listen(server: Server, scheme: string, counter: { n: number }): Promise<Listening> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `${scheme}://127.0.0.1:${port}`,
        get requests() {
          return counter.n;
        },
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** An https API server answering GET /api/v1/nodes for `token` or a client certificate signed by the CA. */
export function startApiServer(pki: Pki, token: string): Promise<Listening> {
  const counter = { n: 0 };
  const server = createHttpsServer(
    {
      cert: pki.serverCertPem,
      key: pki.serverKeyPem,
      ca: pki.caPem,
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      counter.n += 1;
      const socket = req.socket as TLSSocket;
      const ok = req.headers.authorization === `Bearer ${token}` || socket.authorized;
      res.setHeader('content-type', 'application/json');
      if (!ok) {
        res.statusCode = 401;
        res.end(
          JSON.stringify({
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            code: 401,
            reason: 'Unauthorized',
          }),
        );
        return;
      }
      const who = socket.authorized ? 'certificate' : 'token';
      res.end(
        JSON.stringify({
          kind: 'NodeList',
          apiVersion: 'v1',
          metadata: { resourceVersion: '1' },
          items: [{ metadata: { name: `by-${who}` } }],
        }),
      );
    },
  );
  return listen(server, 'https', counter);
}

/** Secrets Manager's GetSecretValue over JSON 1.1 for the secrets given; anything else is ResourceNotFound. */
export function startSecretsManager(secrets: Record<string, string>): Promise<Listening> {
  const counter = { n: 0 };
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      counter.n += 1;
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      const id = (JSON.parse(body || '{}') as { SecretId?: string }).SecretId ?? '';
      const value = secrets[id];
      if (req.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue' || value === undefined) {
        res.statusCode = 400;
        res.end(
          JSON.stringify({
            __type: 'ResourceNotFoundException',
            message: "Secrets Manager can't find the specified secret.",
          }),
        );
        return;
      }
      res.end(
        JSON.stringify({
          ARN: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${id}-AbCdEf`,
          Name: id,
          SecretString: value,
          VersionId: 'v1',
        }),
      );
    });
  });
  return listen(server, 'http', counter);
}

/** A kubeconfig document (YAML is a superset of JSON) for `server` with the given cluster and user fields. */
export function kubeconfig(
  server: string,
  cluster: Record<string, unknown>,
  user: Record<string, unknown>,
): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'c',
    clusters: [{ name: 'k', cluster: { server, ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
  });
}

export const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');
