/**
 * Application configuration (docs/api.md "Configuration and origin learning").
 *
 * Each route is a module of its own in `configuration/`, which its handler imports alone, so a route's
 * bundle holds its own entry and no other; this table lists them, in order, for the one table
 * (shared/routes.ts).
 */

import type { RouteSpec } from '../route-spec.ts';
import { getConfiguration } from './configuration/get-configuration.ts';
import { patchConfiguration } from './configuration/patch-configuration.ts';
import { replaceConfiguration } from './configuration/replace-configuration.ts';

export const configurationRoutes = {
  getConfiguration,
  replaceConfiguration,
  patchConfiguration,
} as const satisfies Record<string, RouteSpec>;
