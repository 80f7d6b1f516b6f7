/**
 * Every screen of the console: its URL pattern and its module, loaded when first shown (each is its
 * own chunk, so the sign-in screen loads none of them). docs/dashboard.md lists what each calls.
 */
import type { ComponentType } from 'preact';

export type ScreenProps = { readonly params: Record<string, string>; readonly query: URLSearchParams };

export interface Screen {
  readonly pattern: string;
  readonly load: () => Promise<{ default: ComponentType<ScreenProps> }>;
}

export const screens: readonly Screen[] = [
  { pattern: '/dashboard/organizations', load: () => import('./screens/organizations.tsx') },
  { pattern: '/dashboard/organizations/:organizationId', load: () => import('./screens/organization.tsx') },
  {
    pattern: '/dashboard/organizations/:organizationId/members',
    load: () => import('./screens/members.tsx'),
  },
  { pattern: '/dashboard/organizations/:organizationId/audit', load: () => import('./screens/audit.tsx') },
  { pattern: '/dashboard/applications/:applicationId', load: () => import('./screens/application.tsx') },
  { pattern: '/dashboard/applications/:applicationId/keys', load: () => import('./screens/keys.tsx') },
  {
    pattern: '/dashboard/applications/:applicationId/configuration',
    load: () => import('./screens/configuration.tsx'),
  },
  { pattern: '/dashboard/applications/:applicationId/users', load: () => import('./screens/users.tsx') },
  {
    pattern: '/dashboard/applications/:applicationId/users/:userId',
    load: () => import('./screens/user.tsx'),
  },
  {
    pattern: '/dashboard/applications/:applicationId/organizations',
    load: () => import('./screens/tenant-organizations.tsx'),
  },
  {
    pattern: '/dashboard/applications/:applicationId/organizations/:organizationId',
    load: () => import('./screens/tenant-organization.tsx'),
  },
  {
    pattern: '/dashboard/applications/:applicationId/insights',
    load: () => import('./screens/insights.tsx'),
  },
  { pattern: '/dashboard/applications/:applicationId/audit', load: () => import('./screens/audit.tsx') },
  { pattern: '/dashboard/account', load: () => import('./screens/account.tsx') },
];
