// The Compute Engine startup-script of one launch: the node class's bootstrap (bootstrap.ts) for the image the
// machine type boots, with the NVIDIA driver installation first when that image needs it (Container-Optimized OS
// on a GPU machine: docs/mechanisms/images.md#gpu-drivers).
import type { ResolvedGceImage } from '../model/gce-images.ts';
import { BootstrapError, renderUserData, type UserDataInput } from './bootstrap.ts';

/**
 * Google's steps for GPUs on Container-Optimized OS ("Running GPUs on Container-Optimized OS VMs"): install the
 * driver matching the COS release, then make its directory executable; nvidia-smi lives under it, so it goes on
 * PATH for the rest of the script (the Kubeadm join waits for `nvidia-smi -L`).
 */
export const COS_GPU_DRIVER_LINES: readonly string[] = [
  '# kraftsman: Container-Optimized OS ships no NVIDIA driver; install it before the node joins',
  'cos-extensions install gpu',
  'mount --bind /var/lib/nvidia /var/lib/nvidia',
  'mount -o remount,exec /var/lib/nvidia',
  'export PATH="/var/lib/nvidia/bin:$PATH"',
];

export interface StartupScriptInput extends UserDataInput {
  readonly image: ResolvedGceImage;
}

export function renderStartupScript(input: StartupScriptInput): string {
  const script = renderUserData(input);
  if (input.image.driver !== 'startup-script') return script;
  const shebang = /^#!.*\n/.exec(script);
  if (!shebang)
    throw new BootstrapError(
      `${input.nodeClass.kind} ${input.nodeClass.metadata.name}: ${input.image.image} on a GPU machine needs the NVIDIA driver installed by the startup-script, so spec.bootstrap.script must be a shell script starting with #!`,
    );
  return [shebang[0].trimEnd(), ...COS_GPU_DRIVER_LINES, script.slice(shebang[0].length)].join('\n');
}
