// A Compute Engine startup-script for the image its machine boots: on Container-Optimized OS with GPUs the NVIDIA
// driver is installed first (cos-extensions), before the join; images that ship the driver get the script as is.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveGceImage } from '../../../../shared/model/gce-images.ts';
import type { GCENodeClass } from '../../../../shared/model/nodeclass.ts';
import { renderUserData } from '../../../../shared/provisioning/bootstrap.ts';
import { renderStartupScript } from '../../../../shared/provisioning/gce-startup.ts';
import { sandbox, shellcheck, type Sandbox } from '../../../support/bootstrap-sandbox.ts';
import { claim, gceClass, TOKEN } from './fixtures.ts';

const GPU = { arch: 'amd64', accelerator: 'nvidia' } as const;
const render = (nc: GCENodeClass, key: typeof GPU | { arch: 'amd64'; accelerator: 'none' } = GPU) =>
  renderStartupScript({
    cluster: 'prod',
    claim: claim(),
    nodeClass: nc,
    join: TOKEN,
    image: resolveGceImage(nc, key),
  });

let box: Sandbox | undefined;
afterEach(() => box?.remove());

describe('GCE startup-script', () => {
  it('on COS with GPUs installs the driver, then waits for nvidia-smi, then joins; it passes shellcheck', async () => {
    // COS holds no kubeadm: a COS node joins through its own (Custom) script, which runs after the driver step.
    const script = render(
      gceClass({
        imageSelectorTerms: [{ alias: 'cos' }],
        bootstrap: { script: '#!/bin/bash\nnvidia-smi -L\nkubeadm join "$KRAFTSMAN_API_SERVER"\n' },
      }),
    );
    expect(shellcheck(script)).toEqual({ status: 0, output: '' });
    box = sandbox();
    const order = `${box.dir}/order`;
    for (const name of ['cos-extensions', 'mount', 'nvidia-smi', 'kubeadm'])
      box.stub(name, `echo ${name} >> '${order}'`);
    const run = await box.run(script);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.calls('cos-extensions')).toEqual(['install gpu']);
    expect(run.calls('mount')).toEqual([
      '--bind /var/lib/nvidia /var/lib/nvidia',
      '-o remount,exec /var/lib/nvidia',
    ]);
    expect(readFileSync(order, 'utf8').trim().split('\n')).toEqual([
      'cos-extensions',
      'mount',
      'mount',
      'nvidia-smi',
      'kubeadm',
    ]);
  });

  it('leaves the script as rendered on a CPU machine and on an image that ships the driver', () => {
    const script = { script: '#!/bin/bash\n/opt/bin/join\n' };
    const cos = gceClass({ imageSelectorTerms: [{ alias: 'cos' }], bootstrap: script });
    const plain = renderUserData({ cluster: 'prod', claim: claim(), nodeClass: cos, join: TOKEN });
    expect(render(cos, { arch: 'amd64', accelerator: 'none' })).toBe(plain);
    const own = gceClass({ imageSelectorTerms: [{ id: 'projects/p/global/images/k8s-gpu' }] });
    expect(render(own)).toBe(
      renderUserData({ cluster: 'prod', claim: claim(), nodeClass: own, join: TOKEN }),
    );
    const ubuntu = gceClass({ imageSelectorTerms: [{ alias: 'ubuntu-accelerator' }], bootstrap: script });
    expect(render(ubuntu)).toBe(
      renderUserData({ cluster: 'prod', claim: claim(), nodeClass: ubuntu, join: TOKEN }),
    );
    expect(render(ubuntu)).not.toContain('cos-extensions');
  });

  it('refuses a Kubeadm node on a public image: none holds kubeadm, so it could never join', () => {
    for (const alias of ['cos', 'ubuntu-accelerator@latest'])
      expect(() => render(gceClass({ imageSelectorTerms: [{ alias }] }))).toThrow(
        `GCENodeClass gpu: Kubeadm nodes cannot join on image alias ${alias}: its public image holds no kubeadm, kubelet or container runtime`,
      );
  });

  it('refuses COS with GPUs when the Custom script is not a shell script the driver step can precede', () => {
    const nc = gceClass({ imageSelectorTerms: [{ alias: 'cos' }], bootstrap: { script: 'echo no shebang' } });
    expect(() => render(nc)).toThrow(
      'GCENodeClass gpu: projects/cos-cloud/global/images/family/cos-stable on a GPU machine needs the NVIDIA driver installed by the startup-script, so spec.bootstrap.script must be a shell script starting with #!',
    );
    const shell = gceClass({
      imageSelectorTerms: [{ alias: 'cos' }],
      bootstrap: { script: '#!/bin/sh\necho mine\n' },
    });
    expect(render(shell)).toMatch(
      /^#!\/bin\/sh\n# kraftsman: Container-Optimized OS[^\n]*\ncos-extensions install gpu\n/,
    );
  });
});
