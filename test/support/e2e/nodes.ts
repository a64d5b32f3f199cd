// The emulated kubelet is the local fleet's (local/kubelet.ts); the end-to-end harness re-uses it.
export { registerEc2Node, registerGceNode } from '../../../local/kubelet.ts';
