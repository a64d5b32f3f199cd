// EC2 query protocol input: the form-encoded body as a flat map, read back by the dotted names the SDK
// writes (`Filter.1.Value.2`, `LaunchTemplateConfigs.1.Overrides.3.InstanceType`).
import { Ec2Fault } from './faults.ts';

export type Params = ReadonlyMap<string, string>;

export function parseForm(body: string): Params {
  return new Map(new URLSearchParams(body).entries());
}

/** Values of a flat list `Prefix.1`, `Prefix.2`, … in index order. */
export function listOf(params: Params, prefix: string): string[] {
  return membersOf(params, prefix).map((m) => m.get('') ?? '');
}

/**
 * Members of a structured list `Prefix.N.*` as maps keyed by the rest of the name (the empty key
 * holds `Prefix.N` itself), in index order.
 */
export function membersOf(params: Params, prefix: string): Map<string, string>[] {
  const byIndex = new Map<number, Map<string, string>>();
  const head = `${prefix}.`;
  for (const [k, v] of params) {
    if (!k.startsWith(head)) continue;
    const rest = k.slice(head.length);
    const dot = rest.indexOf('.');
    const index = Number(dot < 0 ? rest : rest.slice(0, dot));
    if (!Number.isInteger(index)) continue;
    const member = byIndex.get(index) ?? new Map<string, string>();
    member.set(dot < 0 ? '' : rest.slice(dot + 1), v);
    byIndex.set(index, member);
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, m]) => m);
}

/** The sub-map of one structure `Prefix.*`. */
export function structOf(params: Params, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  const head = `${prefix}.`;
  for (const [k, v] of params) if (k.startsWith(head)) out.set(k.slice(head.length), v);
  return out;
}

export interface Filter {
  readonly name: string;
  readonly values: readonly string[];
}

export function filtersOf(params: Params): Filter[] {
  return membersOf(params, 'Filter').map((m) => ({ name: m.get('Name') ?? '', values: listOf(m, 'Value') }));
}

/** Tags of `TagSpecification.N` entries for one resource type. */
export function tagsFor(params: Params, prefix: string, resourceType: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const spec of membersOf(params, prefix)) {
    if (spec.get('ResourceType') !== resourceType) continue;
    for (const t of membersOf(spec, 'Tag')) tags[tagKey(t.get('Key'))] = t.get('Value') ?? '';
  }
  return tags;
}

/**
 * A tag key as EC2 takes it (API reference, Tag: at most 127 characters, never beginning with `aws:`; EC2 User
 * Guide, tag restrictions: a key is required): anything else is `InvalidParameterValue`, naming the key.
 */
export function tagKey(key: string | undefined): string {
  if (!key || key.length > 127 || key.toLowerCase().startsWith('aws:'))
    throw new Ec2Fault(
      'InvalidParameterValue',
      `Tag key '${key ?? ''}' is invalid: a key has 1 to 127 characters and may not begin with aws:`,
    );
  return key;
}

/**
 * EC2 refuses a filter it does not know, whatever the resources (`InvalidParameterValue: The filter
 * 'x' is invalid`): a silently empty answer would hide a misspelt filter. `tag:K` and `tag-key` are
 * always known.
 */
export function checkFilters(filters: readonly Filter[], known: readonly string[]): void {
  for (const f of filters)
    if (!known.includes(f.name) && f.name !== 'tag-key' && !/^tag:.+/.test(f.name))
      throw new Ec2Fault('InvalidParameterValue', `The filter '${f.name}' is invalid`);
}

/** EC2 filter semantics: every filter must match; within one, any value; `*` and `?` are wildcards. */
export function matchesFilters(
  filters: readonly Filter[],
  fieldValues: (name: string) => readonly string[] | undefined,
): boolean {
  return filters.every((f) => {
    const have = fieldValues(f.name);
    if (have === undefined) return false;
    return f.values.some((want) => have.some((h) => wildcard(want).test(h)));
  });
}

function wildcard(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/** Values for the `tag:Key` and `tag-key` filters over a tag map. */
export function tagField(
  tags: Readonly<Record<string, string>>,
  name: string,
): readonly string[] | undefined {
  if (name === 'tag-key') return Object.keys(tags);
  if (name.startsWith('tag:')) {
    const v = tags[name.slice(4)];
    return v === undefined ? [] : [v];
  }
  return undefined;
}
