// A sandbox to run a rendered bootstrap script in: a temp dir whose bin/ (first on PATH) holds stub `kubeadm`,
// `systemctl`, `nvidia-smi`, `sleep` and `curl` (the instance metadata services) that record their arguments, and
// whose root/ stands for `/` (KRAFTSMAN_ROOT), so a test reads back the exact commands run and the files written.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SandboxRun {
  readonly status: number | null;
  readonly stderr: string;
  /** Each stub's calls, one line of arguments per call. */
  calls(stub: string): string[];
  /** A file the script wrote, by its path on a node (`/etc/default/kubelet`). */
  file(path: string): string | undefined;
}

export interface Sandbox {
  readonly dir: string;
  /** Replaces a stub: `body` is bash run after the call is recorded (its exit code is the stub's). */
  stub(name: string, body: string): void;
  /** A stub written as a Node.js program (the recording is done first, in bash). */
  nodeStub(name: string, program: string): void;
  /** Runs the script with bash (asynchronously: a stub may call a server in this process). */
  run(script: string, env?: Readonly<Record<string, string>>): Promise<SandboxRun>;
  remove(): void;
}

/** What the stub `curl` answers for the metadata paths the Kubeadm script reads (its provider ID). */
export const SANDBOX_INSTANCE = {
  aws: 'aws:///us-east-1a/i-0123456789abcdef0',
  gcp: 'gce://kraftsman-test/us-central1-a/gpu-node-1',
} as const;
const METADATA = [
  'case "${*: -1}" in',
  '  */latest/api/token) printf imds-token ;;',
  '  */meta-data/placement/availability-zone) printf us-east-1a ;;',
  '  */meta-data/instance-id) printf i-0123456789abcdef0 ;;',
  '  */project/project-id) printf kraftsman-test ;;',
  '  */instance/zone) printf projects/123456/zones/us-central1-a ;;',
  '  */instance/name) printf gpu-node-1 ;;',
  '  *) exit 22 ;;',
  'esac',
].join('\n');

export function sandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'kraftsman-boot-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  mkdirSync(join(dir, 'calls'));
  mkdirSync(join(dir, 'root'));
  const stub = (name: string, body: string): void => {
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/bash\nprintf '%s\\n' "$*" >> '${join(dir, 'calls', name)}'\n${body}\n`);
    chmodSync(path, 0o755);
  };
  for (const name of ['kubeadm', 'systemctl', 'nvidia-smi', 'sleep']) stub(name, 'exit 0');
  // The instance metadata services (EC2 IMDSv2, Compute Engine), answering by the URL's path.
  stub('curl', METADATA);
  return {
    dir,
    stub,
    nodeStub(name, program) {
      const js = join(dir, `${name}.mjs`);
      writeFileSync(js, program);
      stub(name, `exec '${process.execPath}' '${js}' "$@"`);
    },
    async run(script, env = {}) {
      const path = join(dir, 'bootstrap.sh');
      writeFileSync(path, script);
      const child = spawn('/bin/bash', [path], {
        env: { PATH: `${bin}:/usr/bin:/bin`, KRAFTSMAN_ROOT: join(dir, 'root'), ...env },
      });
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
      const status = await new Promise<number | null>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (code) => resolve(code));
      });
      return {
        status,
        stderr,
        calls: (s) => {
          const f = join(dir, 'calls', s);
          return existsSync(f) ? readFileSync(f, 'utf8').split('\n').slice(0, -1) : [];
        },
        file: (p) => {
          const f = join(dir, 'root', p);
          return existsSync(f) ? readFileSync(f, 'utf8') : undefined;
        },
      };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** shellcheck's findings on a script (its exit code and output): run the Debian binary, as CI does. */
export function shellcheck(script: string): { status: number | null; output: string } {
  const r = spawnSync('shellcheck', ['--shell=bash', '-'], { input: script, encoding: 'utf8' });
  if (r.error) throw new Error(`shellcheck could not run (.ci/run installs it): ${r.error.message}`);
  return { status: r.status, output: r.stdout + r.stderr };
}
