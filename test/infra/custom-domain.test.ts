import { describe, expect, it } from 'vitest';
import { routeList, routes } from '../../shared/routes.ts';
import { dependencyCycle } from './references.ts';
import { type Resource, synthDoorcode, variablesOf } from './synth.ts';

describe('with a custom domain', () => {
  const domain = 'auth.example.com';
  const custom = synthDoorcode({
    domain,
    certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/1234abcd-12ab-34cd-56ef-1234567890ab',
  });

  it('issues tokens as https://<domain> and maps the domain to the default stage', () => {
    const functions = Object.values(custom.template.findResources('AWS::Lambda::Function')) as Resource[];
    // One per route, and the statistics aggregator (lib/statistics-aggregator.ts).
    expect(functions).toHaveLength(routeList.length + 1);
    for (const fn of functions) expect(variablesOf(fn).ISSUER).toBe(`https://${domain}`);
    custom.template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: domain });
    custom.template.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 1);
    const outputs = custom.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.JwksUrl?.Value).toBe(`https://${domain}${routes.jwks.path}`);
    expect(outputs.CustomDomainTarget).toBeDefined();
  });

  it('disables the execute-api endpoint, so the domain is the only issuer clients can meet', () => {
    custom.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
    const outputs = custom.template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.ApiUrl?.Value).toBe(`https://${domain}`);
    expect(outputs.IssuerUrl?.Value).toBe(`https://${domain}`);
  });

  it('keeps the per-route throttles', () => {
    const stage = Object.values(custom.template.findResources('AWS::ApiGatewayV2::Stage'))[0] as Resource;
    expect(Object.keys(stage.Properties.RouteSettings as object)).toContain(
      `${routes.codeStart.method} ${routes.codeStart.path}`,
    );
  });

  it("verifies the sender's whole domain and outputs its DKIM records", () => {
    custom.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'example.com' });
    const outputs = Object.keys(custom.template.toJSON().Outputs as object);
    expect(outputs.filter((name) => name.startsWith('SenderDkimRecord'))).toHaveLength(3);
  });

  it('has no dependency cycle', () => {
    expect(dependencyCycle(custom.template.toJSON().Resources)).toEqual([]);
  });
});
