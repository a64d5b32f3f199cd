// `kraftsman catalog --cloud aws|gcp --region R [-o yaml|json]`: an InstanceTypeCatalog read from a real account
// (docs/catalog.md, docs/contract.md#kraftsman-catalog). The SDK finds the credentials and endpoints as it always
// does (AWS_ENDPOINT_URL_EC2 / _PRICING, KRAFTSMAN_GCE_ENDPOINT); any failure to read is exit 2 naming what.
import { stringify } from 'yaml';
import { cloudOfRegion } from '../../shared/catalog/regions.ts';
import type { InstanceTypeSpec } from '../../shared/model/catalog.ts';
import type { Cloud } from '../../shared/model/labels.ts';
import { accountError } from './catalog-errors.ts';
import type { Io } from './command-context.ts';
import { CATALOG_USAGE } from './command-help.ts';
import { eachFlag, InputError, unexpectedArgument } from './errors.ts';

interface CatalogArgs {
  cloud?: Cloud;
  region?: string;
  output: 'yaml' | 'json';
}

function parse(argv: readonly string[]): Required<CatalogArgs> {
  const a: CatalogArgs = { output: 'yaml' };
  eachFlag(argv, CATALOG_USAGE, (flag, value, arg) => {
    if (flag === '--cloud') {
      const v = value();
      if (v !== 'aws' && v !== 'gcp') throw new InputError(`--cloud must be aws or gcp, got "${v}"`);
      a.cloud = v;
    } else if (flag === '--region') a.region = value();
    else if (flag === '-o' || flag === '--output') {
      const v = value();
      if (v !== 'yaml' && v !== 'json') throw new InputError(`-o must be yaml or json, got "${v}"`);
      a.output = v;
    } else throw unexpectedArgument(arg, CATALOG_USAGE);
  });
  if (!a.cloud) throw new InputError(`catalog needs --cloud aws|gcp\n${CATALOG_USAGE}`);
  if (!a.region) throw new InputError(`catalog needs --region R\n${CATALOG_USAGE}`);
  if (cloudOfRegion(a.region) !== a.cloud)
    throw new InputError(
      `--region "${a.region}" is not ${a.cloud === 'aws' ? 'an AWS' : 'a Google Cloud'} region name`,
    );
  return { cloud: a.cloud, region: a.region, output: a.output };
}

export async function catalog(argv: readonly string[], io: Io): Promise<number> {
  const args = parse(argv);
  const now = io.now();
  let types: InstanceTypeSpec[];
  try {
    types =
      args.cloud === 'aws'
        ? await (await import('./catalog-aws.ts')).readAwsCatalog(args.region, now)
        : await (await import('./catalog-gcp.ts')).readGcpCatalog(args.region);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw accountError(e, args.cloud, args.region);
  }
  if (types.length === 0)
    throw new InputError(
      `${args.cloud} region ${args.region} offers no priced instance type to this account (an unknown or disabled region?)`,
    );
  const doc = {
    apiVersion: 'kraftsman.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    metadata: { name: `${args.cloud}-${args.region}` },
    source: `kraftsman catalog --cloud ${args.cloud} --region ${args.region}, read ${now.toISOString()} from the account's ${
      args.cloud === 'aws'
        ? 'DescribeInstanceTypes, DescribeInstanceTypeOfferings, DescribeSpotPriceHistory and Price List GetProducts'
        : 'machineTypes, acceleratorTypes and Cloud Billing catalog SKUs'
    }`,
    instanceTypes: types,
  };
  io.stdout.write(args.output === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : stringify(doc));
  return 0;
}
