// Custom family: the user's userData as given (Karpenter's Custom: no merge), with the KRAFTSMAN_* environment made
// available — exported right after a shell script's `#!` line (and written to /etc/kraftsman/env), or, for a MIME
// document, in a first shell part that writes /etc/kraftsman/env. Anything else (cloud-config, TOML) goes unchanged.
import { envFileLines, exportLines, kraftsmanEnv, type JoinFacts } from './bootstrap-facts.ts';
import { isMime, parseMime, serializeMime, shellPart } from './bootstrap-mime.ts';

export function renderCustom(f: JoinFacts, userData: string): string {
  const env = kraftsmanEnv(f);
  if (isMime(userData)) {
    const parts = parseMime(userData, 'spec.userData');
    const writeEnv = [
      '#!/bin/bash',
      `# kraftsman environment for NodeClaim ${f.claimName}`,
      ...envFileLines(env),
    ];
    return serializeMime([shellPart(writeEnv.join('\n')), ...parts]);
  }
  const shebang = /^#!.*\n/.exec(userData);
  if (!shebang) return userData;
  return [
    shebang[0].trimEnd(),
    `# kraftsman environment for NodeClaim ${f.claimName} (then the node class's script, as given)`,
    ...exportLines(env),
    ...envFileLines(env),
    userData.slice(shebang[0].length),
  ].join('\n');
}
