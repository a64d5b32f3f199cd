// EventBridge event patterns, matched as EventBridge matches them, for the subset the interruption rules use:
// every pattern key must be present in the event; an array of values matches when the event's value (or any
// element of an event array) equals one of them; an object recurses. Content filters (prefix, numeric,
// anything-but, exists…) are refused by name rather than guessed at.
export class EventPatternError extends Error {
  override readonly name = 'EventPatternError';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function matchesValues(allowed: readonly unknown[], value: unknown, path: string): boolean {
  for (const a of allowed)
    if (isObject(a))
      throw new EventPatternError(
        `${path}: content filter ${JSON.stringify(a)} is not supported by the emulator`,
      );
  const values = Array.isArray(value) ? value : [value];
  return values.some((v) => allowed.some((a) => a === v));
}

export function matchesPattern(pattern: unknown, event: unknown, path = '$'): boolean {
  if (!isObject(pattern)) throw new EventPatternError(`${path}: a pattern must be an object`);
  if (!isObject(event)) return false;
  return Object.entries(pattern).every(([key, p]) => {
    const at = `${path}.${key}`;
    if (!(key in event)) return false;
    if (Array.isArray(p)) return matchesValues(p, event[key], at);
    if (isObject(p)) return matchesPattern(p, event[key], at);
    throw new EventPatternError(`${at}: a pattern leaf must be an array of values, got ${JSON.stringify(p)}`);
  });
}
