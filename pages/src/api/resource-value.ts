import type { Resource } from 'solid-js';

/**
 * A resource's value, or undefined while it has failed: reading an errored resource throws, and the screen would
 * fail whole instead of saying why beside the field that caused it.
 */
export function valueUnlessFailed<T>(resource: Resource<T>): T | undefined {
  return resource.error ? undefined : resource();
}
