// AL2023 user data: a MIME multipart document (read back with postal-mime) whose last part is nodeadm's NodeConfig,
// checked against a schema of its real fields (node.eks.aws/v1alpha1), after the user's own parts in their order.
import PostalMime from 'postal-mime';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BootstrapError, renderUserData } from '../../../../shared/provisioning/bootstrap.ts';
import { CA_BUNDLE, claim, ec2Class, KUBELET_LABELS } from './fixtures.ts';

/** nodeadm's NodeConfig (amazon-eks-ami nodeadm/api/v1alpha1): the fields kraftsman writes, nothing else. */
const nodeConfigSchema = z.strictObject({
  apiVersion: z.literal('node.eks.aws/v1alpha1'),
  kind: z.literal('NodeConfig'),
  spec: z.strictObject({
    cluster: z.strictObject({
      name: z.string().min(1),
      apiServerEndpoint: z.url(),
      certificateAuthority: z.base64(),
      cidr: z.cidrv4(),
    }),
    kubelet: z.strictObject({
      config: z.strictObject({
        maxPods: z.number().int().optional(),
        registerWithTaints: z.array(
          z.strictObject({
            key: z.string(),
            value: z.string().optional(),
            effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
          }),
        ),
      }),
      flags: z.array(z.string().regex(/^--[a-z-]+=/)),
    }),
  }),
});

const render = (spec: Record<string, unknown>): string =>
  renderUserData({ cluster: 'prod', claim: claim(), nodeClass: ec2Class(spec) });

async function parts(text: string) {
  const mail = await PostalMime.parse(text, { attachmentEncoding: 'utf8' });
  return mail.attachments.map((a) => ({ type: a.mimeType, content: String(a.content) }));
}

describe('AL2023 user data', () => {
  it('is one MIME part holding a NodeConfig with the cluster, CA, CIDR, kubelet config and label flag', async () => {
    const text = render({ amiSelectorTerms: [{ alias: 'al2023@latest' }] });
    expect(text).toMatch(
      /^MIME-Version: 1\.0\nContent-Type: multipart\/mixed; boundary="KRAFTSMAN-BOUNDARY"\n/,
    );
    const ps = await parts(text);
    expect(ps.map((p) => p.type)).toEqual(['application/node.eks.aws']);
    const config = nodeConfigSchema.parse(parse(ps[0]?.content ?? ''));
    expect(config.spec.cluster).toEqual({
      name: 'prod',
      apiServerEndpoint: 'https://api.prod.example.internal:6443',
      certificateAuthority: CA_BUNDLE,
      cidr: '10.100.0.0/16',
    });
    expect(config.spec.kubelet.config).toEqual({
      maxPods: 110,
      registerWithTaints: [
        { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
        { key: 'example.com/warming', effect: 'NoSchedule' },
        { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
      ],
    });
    expect(config.spec.kubelet.flags).toEqual([`--node-labels=${KUBELET_LABELS}`]);
  });

  it("merges a user's MIME document: its parts first, in order, kraftsman's NodeConfig last", async () => {
    const user = [
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="//"',
      '',
      '--//',
      'Content-Type: text/x-shellscript; charset="us-ascii"',
      '',
      '#!/bin/bash',
      'echo pre-nodeadm',
      '--//',
      'Content-Type: application/node.eks.aws',
      '',
      'apiVersion: node.eks.aws/v1alpha1',
      'kind: NodeConfig',
      'spec:',
      '  kubelet:',
      '    config:',
      '      shutdownGracePeriod: 30s',
      '--//--',
      '',
    ].join('\n');
    const ps = await parts(render({ amiFamily: 'AL2023', userData: user }));
    expect(ps.map((p) => p.type)).toEqual([
      'text/x-shellscript',
      'application/node.eks.aws',
      'application/node.eks.aws',
    ]);
    expect(ps[0]?.content).toContain('echo pre-nodeadm');
    expect(ps[1]?.content).toContain('shutdownGracePeriod: 30s');
    expect(nodeConfigSchema.parse(parse(ps[2]?.content ?? '')).spec.cluster.name).toBe('prod');
  });

  it('wraps a non-MIME shell userData as a shell part, and a bare NodeConfig as a NodeConfig part', async () => {
    const shell = await parts(render({ amiFamily: 'AL2023', userData: '#!/bin/bash\necho hello' }));
    expect(shell.map((p) => p.type)).toEqual(['text/x-shellscript', 'application/node.eks.aws']);
    expect(shell[0]?.content.trim()).toBe('#!/bin/bash\necho hello');
    const bare = 'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec: {}\n';
    const config = await parts(render({ amiFamily: 'AL2023', userData: bare }));
    expect(config.map((p) => p.type)).toEqual(['application/node.eks.aws', 'application/node.eks.aws']);
  });

  it('picks a boundary that no part contains', async () => {
    const text = render({ amiFamily: 'AL2023', userData: '#!/bin/bash\necho --KRAFTSMAN-BOUNDARY' });
    expect(text).toContain('boundary="KRAFTSMAN-BOUNDARY-1"');
    expect((await parts(text))[0]?.content).toContain('echo --KRAFTSMAN-BOUNDARY');
  });

  it('refuses a broken MIME userData and a class without the service CIDR, naming what', () => {
    expect(() =>
      render({ amiFamily: 'AL2023', userData: 'MIME-Version: 1.0\nContent-Type: text/plain\n\nx' }),
    ).toThrow(
      /EC2NodeClass gpu: spec.userData: not a usable MIME multipart document: Content-Type text\/plain is not multipart\/mixed/,
    );
    expect(() =>
      render({
        amiFamily: 'AL2023',
        bootstrap: { apiServerEndpoint: 'https://x:6443', caBundle: CA_BUNDLE },
      }),
    ).toThrow(
      new BootstrapError('EC2NodeClass gpu: AL2023 nodes cannot join without spec.bootstrap.serviceCIDR'),
    );
  });
});
