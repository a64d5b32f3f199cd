// `kraftsman --help`, `kraftsman help` and `kraftsman --version`: print to stdout and exit 0 (docs/contract.md).
import { readFileSync } from 'node:fs';
import { USAGE } from './args.ts';
import { COMMAND_HELP } from './command-help.ts';

export const HELP = `kraftsman — a Karpenter-faithful autoscaler for Kubernetes GPU fleets, run against a cluster snapshot

${USAGE}
       kraftsman userdata -f FILE [-f FILE ...] --instance-type TYPE [--nodepool NAME] [--cluster NAME]
                 [--zone ZONE] [--catalog FILE]
       kraftsman catalog --cloud aws|gcp --region R [-o yaml|json]
       kraftsman fleet [--scenario NAME] [--seed S] [--speed N] [--minutes N] [--wall-clock] [--upstream] [--compare]
                 [--report FILE] [--json FILE] [--hold] [--list-scenarios]

commands:
  simulate   what provisioning would do with the pending pods of the snapshot
  plan       what one consolidation pass would do (dry run)
  census     simulate every candidate node, act on none
  userdata   the user data (or GCE startup-script) a launch of the NodePool on TYPE would send, token redacted
  catalog    an InstanceTypeCatalog read from a real account (types, zones, prices of one region)
  fleet      the whole reconciler on a local two-cloud fleet (emulators, simulated clock); npm start runs it

Each command's own options: kraftsman COMMAND --help.

inputs:
  -f FILE            YAML or JSON (a List, a multi-document stream or one object); - is standard input; a
                     directory reads its .json, .yaml and .yml files (-R: and its subdirectories')
  --catalog FILE     an InstanceTypeCatalog to use instead of the built-in catalog
  --extra-types FILE types added to the catalog, or replacing the type of the same name (repeatable)
  --region R         only offerings in region R (repeatable; default: the regions the snapshot names)
  --now RFC3339      the clock (default: the current time)
  -o json|table      output format (default table)
  --upstream         turn every kraftsman difference off (Karpenter's answer)

Exit codes: 0 success, 2 bad input or usage, 1 internal error. Input bounds: docs/input-bounds.md.
`;

/** The version of the installed package (package.json next to bin/). */
export function version(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const v = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  return typeof v === 'string' ? v : 'unknown';
}

/** The text to print when argv asks for help or the version, else undefined. */
export function helpOrVersion(argv: readonly string[]): string | undefined {
  const [first] = argv;
  if (first === '--version' || first === '-V' || first === 'version') return `kraftsman ${version()}\n`;
  if (first === 'help' && argv[1] !== undefined && Object.hasOwn(COMMAND_HELP, argv[1]))
    return COMMAND_HELP[argv[1]];
  if (first === '--help' || first === '-h' || first === 'help') return HELP;
  if (argv.includes('--help') || argv.includes('-h'))
    return (
      (first !== undefined && Object.hasOwn(COMMAND_HELP, first) ? COMMAND_HELP[first] : undefined) ?? HELP
    );
  return undefined;
}
