import { describe, expect, it } from 'vitest';
import { redirectUriRefusal } from '../../shared/oauth/redirect-uri.ts';

// The redirect URIs a client metadata document may list (docs/oauth.md, "Client ID metadata
// documents"): an allow-list after RFC 8252 §7, so a scheme nobody thought of is refused too.
describe('redirectUriRefusal', () => {
  it.each([
    ['https', 'https://agent.example.com/callback'],
    ['https with a port and a query', 'https://agent.example.com:8443/cb?x=1'],
    ['http on 127.0.0.1', 'http://127.0.0.1/cb'],
    ['http on 127.0.0.1 with a port', 'http://127.0.0.1:8765/cb'],
    ['http on [::1]', 'http://[::1]:8765/cb'],
    ['http on localhost', 'http://localhost/cb'],
    ['a reverse-domain private-use scheme (RFC 8252 §7.1)', 'com.example.app:/cb'],
    ['a reverse-domain private-use scheme with a host', 'com.example.app://callback/cb'],
  ])('accepts %s', (_case, uri) => {
    expect(redirectUriRefusal(uri)).toBeNull();
  });

  it.each([
    ['ftp:', 'ftp://files.example.com/cb', /scheme ftp:/],
    ['view-source:https:', 'view-source:https://agent.example.com/cb', /scheme view-source:/],
    ['javascript:', 'javascript:alert(1)', /scheme javascript:/],
    ['data:', 'data:text/html,<p>x</p>', /scheme data:/],
    ['file:', 'file:///etc/passwd', /scheme file:/],
    ['vbscript:', 'vbscript:msgbox(1)', /scheme vbscript:/],
    ['about:', 'about:blank', /scheme about:/],
    ['blob:', 'blob:https://a.example.com/0b7c1f2e-0000-4000-8000-000000000000', /scheme blob:/],
    ['mailto:', 'mailto:someone@example.com', /scheme mailto:/],
    ['a single-word private-use scheme', 'myapp:/cb', /scheme myapp:/],
    [
      'a single-word private-use scheme with a host',
      'cursor://anysphere.cursor-mcp/oauth/callback',
      /scheme cursor:/,
    ],
    ['http on a public host', 'http://agent.example.com/cb', /http on a host other than/],
    ['http on a host named like loopback', 'http://127.0.0.1.example.com/cb', /http on a host other than/],
    ['http on a loopback host written without //', 'http:127.0.0.1/cb', /http on a host other than/],
    ['https without //', 'https:agent.example.com/cb', /https without a host/],
    ['https with an empty authority', 'https:///agent.example.com/cb', /https without a host/],
    ['a fragment', 'https://agent.example.com/cb#x', /fragment/],
    ['an empty fragment', 'com.example.app:/cb#', /fragment/],
    ['a relative reference', '/cb', /not an absolute URI/],
    ['a newline a URL parser would drop', 'https://agent.example.com/cb\n', /control character/],
    ['a space', 'https://agent.example.com/my cb', /space/],
    ['a number', 42, /not a string/],
  ])('refuses %s, saying why', (_case, uri, why) => {
    expect(redirectUriRefusal(uri)).toMatch(why);
  });
});
