/**
 * The peer the route bundles are compared with (bench/bundles.ts): SST's OpenAuth issuer
 * (https://openauth.js.org) with the email code provider and DynamoDB storage, an auth service of the
 * same shape, bundled with the service's own esbuild options. Its subject is validated by a bare
 * Standard Schema, so no validation library of our choosing is charged to it; its codes go nowhere.
 */
import { issuer } from '@openauthjs/openauth';
import { CodeProvider } from '@openauthjs/openauth/provider/code';
import { DynamoStorage } from '@openauthjs/openauth/storage/dynamo';
import { createSubjects } from '@openauthjs/openauth/subject';
import { CodeUI } from '@openauthjs/openauth/ui/code';
import { handle } from 'hono/aws-lambda';

interface User {
  readonly email: string;
}

const user = {
  '~standard': {
    version: 1,
    vendor: 'bench',
    validate: (value: unknown) => ({ value: value as User }),
  },
} as const;

const app = issuer({
  subjects: createSubjects({ user }),
  storage: DynamoStorage({
    table: process.env.TABLE_NAME ?? 'bench',
    endpoint: process.env.AWS_ENDPOINT_URL,
  }),
  providers: {
    code: CodeProvider(CodeUI({ sendCode: async () => {} })),
  },
  success: async (ctx, value) => ctx.subject('user', { email: value.claims.email ?? '' }),
});

export const handler = handle(app);
