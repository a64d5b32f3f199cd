// `kraftsman COMMAND -h|--help`: each command's own usage and options (docs/contract.md "Help").

export const USERDATA_USAGE = `usage: kraftsman userdata -f FILE|DIR [-f ...] [-R] --instance-type TYPE [--nodepool NAME]
                 [--cluster NAME] [--zone ZONE] [--catalog FILE]`;

export const CATALOG_USAGE = `usage: kraftsman catalog --cloud aws|gcp --region R [-o yaml|json]`;

const INPUTS = `inputs:
  -f, --filename FILE  YAML or JSON (a List, a multi-document stream or one object); - is standard input; a
                       directory reads its .json, .yaml and .yml files (kubectl's extensions), in name order
  -R, --recursive      with -f DIR, also the files of its subdirectories
  --catalog FILE       an InstanceTypeCatalog to use instead of the built-in catalog
  --extra-types FILE   types added to the catalog, or replacing the type of the same name (repeatable)
  --region R           only offerings in region R (repeatable; default: the regions the snapshot names)
  --now RFC3339        the clock (default: the current time)
  -o, --output FORMAT  json or table (default table)
  --upstream           turn every kraftsman difference off (Karpenter's answer)`;

const EXIT = 'Exit codes: 0 success, 2 bad input or usage, 1 internal error.';

export const COMMAND_HELP: Readonly<Record<string, string>> = {
  simulate: `usage: kraftsman simulate -f FILE|DIR [-f ...] [-R] [options]

What provisioning would do with the snapshot's pending pods: the NodeClaims Karpenter's scheduler would create
(type, zone, capacity type, price), the pods each takes, and every pod left unschedulable with the reason.

${INPUTS}

${EXIT}
`,
  plan: `usage: kraftsman plan -f FILE|DIR [-f ...] [-R] [options]

What one consolidation pass would do, as a dry run: the commands (delete or replace), their candidates,
replacements and savings, and for every node not disrupted the reason.

${INPUTS}

plan:
  --max-commands N            proposals one single-node walk may hold (default 1, as Karpenter)
  --spot-to-spot              enable spot-to-spot consolidation
  --spot-to-spot-min-types N  the cheapest N types a spot replacement keeps (default 15)
  --skip-unchanged-negatives  skip candidates whose cached no-op verdict is unchanged
  --workers N                 threads that simulate candidates (default 1; at most 64); same output

${EXIT}
`,
  census: `usage: kraftsman census -f FILE|DIR [-f ...] [-R] [options]

Simulates every candidate node, acts on none: for each, what consolidation would do with it alone (delete,
replace or none) and, for none, the reason.

${INPUTS}

census:
  --workers N  threads that simulate candidates (default 1; at most 64); same output

${EXIT}
`,
  userdata: `${USERDATA_USAGE}

The user data (EC2) or startup-script (Compute Engine) a launch of the NodePool on TYPE would send, rendered by
the launchers' own renderer, the join token redacted.

  -f, --filename FILE   the node class and the NodePool (a directory reads its YAML and JSON files)
  --instance-type TYPE  the instance or machine type to render for (required)
  --nodepool NAME       which NodePool, when the input holds several
  --cluster NAME        the cluster's name as the launch would send it (default shown as "cluster")
  --zone ZONE           the zone the launch would use
  -R, --recursive       with -f DIR, also the files of its subdirectories
  --catalog FILE        an InstanceTypeCatalog to use instead of the built-in catalog

Exit codes: 0 success, 2 bad input or a node class that cannot produce a join, 1 internal error.
`,
  catalog: `${CATALOG_USAGE}

Builds an InstanceTypeCatalog (the --catalog format) from a real account: every instance or machine type offered
in region R, with its zones, shape, labels and on-demand and spot prices (docs/catalog.md).
  aws: DescribeInstanceTypes, DescribeInstanceTypeOfferings, DescribeSpotPriceHistory and the Price List API
       (GetProducts); credentials and endpoints as the AWS SDK finds them (AWS_PROFILE, AWS_ENDPOINT_URL_EC2 …)
  gcp: machineTypes and acceleratorTypes of the region's zones and the Cloud Billing catalog's SKUs, in the
       project of GOOGLE_CLOUD_PROJECT, with application default credentials

  --cloud aws|gcp     the cloud (required)
  --region R          the region (required)
  -o, --output FORMAT yaml or json (default yaml)

Exit codes: 0 success, 2 bad usage, no credentials, access denied or an unknown region, 1 internal error.
`,
  fleet: `usage: kraftsman fleet [--scenario NAME] [--seed S] [--speed N] [--minutes N] [--wall-clock] [--upstream]
                 [--compare] [--report FILE] [--json FILE] [--hold] [--list-scenarios]

The whole reconciler on a local two-cloud fleet: every function through its Lambda handler, on DynamoDB and the
Kubernetes, EC2 and Compute Engine emulators, on a simulated clock. npm start runs it with the defaults.

  --scenario NAME    the fleet and its events (default decay; --list-scenarios names them)
  --seed S           the seed of every random choice (default 42): the same seed, the same summary
  --speed N          simulated seconds per wall second the clock may run ahead at most (default 600)
  --minutes N        simulated minutes to run (default: the scenario's)
  --wall-clock       charge the functions' work at its measured wall time, not the cost model (benchmarks)
  --upstream         Karpenter's behaviour: every kraftsman difference off
  --compare          run kraftsman and upstream, both in the report and the JSON
  --report FILE      the HTML report (default kraftsman-report.html)
  --json FILE        the summary as JSON
  --hold             keep the fleet up after the scenario (kubectl against it) until Ctrl-C
  --list-scenarios   print the scenarios and exit

Exit codes: 0 success, 2 bad usage, 1 a broken invariant or an internal error.
`,
};
