import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;
export type LambdaContext = Context;

/** What a handler returns; the chain turns it into the API Gateway result. */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: string[];
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers,
});
