import { lazy } from 'react';
import type { ComponentType, LazyExoticComponent } from 'react';

/**
 * A route's component, loaded on first visit: each route is its own chunk, so the console's
 * initial JS holds only the shell (routing, sign-in guard, navigation).
 */
export function lazyRoute<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}
