// Context values as the settings read them: a string, a list or a bounded integer, whether they
// come from cdk.json (JSON values) or from `-c key=value` (strings).
import type { Node } from 'constructs';

/** Thrown for a bad context value; the message names the key. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** A context value as a trimmed string, or undefined when unset or empty. */
export function text(node: Node, key: string): string | undefined {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return JSON.stringify(value);
  const trimmed = String(value).trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A list from a JSON array (cdk.json) or a comma-separated string (`-c key=a,b`). */
export function list(node: Node, key: string): string[] {
  const value: unknown = node.tryGetContext(key);
  const items = Array.isArray(value) ? value.map(String) : (text(node, key)?.split(',') ?? []);
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** An integer context value within [min, max], or undefined when unset. */
export function integer(node: Node, key: string, min: number, max: number): number | undefined {
  const raw = text(node, key);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SettingsError(`context ${key} must be an integer from ${min} to ${max} (got ${raw})`);
  }
  return value;
}
