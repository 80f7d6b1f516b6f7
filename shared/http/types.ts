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
  /** A body that is not JSON: its bytes (base64) and type. Takes the place of `body`. */
  raw?: { base64: string; contentType: string };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers,
});
