// mkfifo for the hostile-input suite (Node has no mkfifo of its own; the system's tool makes one).
import { execFileSync } from 'node:child_process';

export function mkfifoSync(path: string): void {
  execFileSync('mkfifo', [path]);
}
