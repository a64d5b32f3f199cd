// The API server's name rules (k8s.io/apimachinery/pkg/util/validation): DNS-1123 labels and subdomains,
// qualified names (label and annotation keys), label values. Each check returns what is wrong, or undefined.
// Lengths are checked before patterns, so no input costs more than the longest valid one.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;
export const QUALIFIED_NAME_MAX = 63;
export const LABEL_VALUE_MAX = 63;

/** IsDNS1123Label: namespaces, and the names that must fit one DNS label. */
export function dns1123LabelError(value: string): string | undefined {
  if (value.length > DNS1123_LABEL_MAX) return `must be no more than ${DNS1123_LABEL_MAX} characters`;
  if (!DNS1123_LABEL.test(value))
    return "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
  return undefined;
}

/** IsDNS1123Subdomain: the names of most objects (pods, nodes, PVCs, custom resources …). */
export function dns1123SubdomainError(value: string): string | undefined {
  if (value.length > DNS1123_SUBDOMAIN_MAX) return `must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`;
  if (!DNS1123_SUBDOMAIN.test(value))
    return "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/** IsQualifiedName: label keys, annotation keys, resource names — `[prefix/]name`, prefix a DNS subdomain. */
export function qualifiedNameError(value: string): string | undefined {
  if (value.length > DNS1123_SUBDOMAIN_MAX + 1 + QUALIFIED_NAME_MAX)
    return 'is too long for a qualified name';
  const parts = value.split('/');
  if (parts.length > 2)
    return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]];
  if (prefix !== undefined) {
    if (prefix.length === 0) return 'prefix part must be non-empty';
    const bad = dns1123SubdomainError(prefix);
    if (bad) return `prefix part ${bad}`;
  }
  if (!name) return 'name part must be non-empty';
  if (name.length > QUALIFIED_NAME_MAX)
    return `name part must be no more than ${QUALIFIED_NAME_MAX} characters`;
  if (!QUALIFIED_NAME.test(name))
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/** IsValidLabelValue: empty, or up to 63 alphanumerics with '-', '_', '.' inside. */
export function labelValueError(value: string): string | undefined {
  if (value.length > LABEL_VALUE_MAX) return `must be no more than ${LABEL_VALUE_MAX} characters`;
  if (!LABEL_VALUE.test(value))
    return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  return undefined;
}

/** A value as shown in a message: quoted, escaped, and cut short when long. */
export function quoted(value: string): string {
  const q = JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  // JSON.stringify leaves DEL, C1 controls and bidirectional overrides as they are; a terminal must not see them
  return q.replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
