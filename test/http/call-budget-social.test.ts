import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallCounter } from '../../fixtures/call-counter.ts';
import type { SecretSealer } from '../../shared/crypto/secret-sealer.ts';
import type { TestApp } from '../support/app.ts';
import { countedBy } from '../support/counted.ts';
import { freshIp } from '../support/http-client.ts';
import { newEmail } from '../support/sign-in.ts';
import {
  exchangeCode,
  githubSignsIn,
  type SocialApplication,
  socialApplication,
} from '../support/social-application.ts';
import {
  browserCookie,
  type SocialProviders,
  startAtProvider,
  startSocialTestApp,
  withChallenge,
} from '../support/social-providers.ts';

// Social sign-in's routes (docs/social-sign-in.md, shared/social/flow.ts): a BatchGetItem counts as one call.
// The callback also opens the owner's client secret (a KMS Decrypt in production), counted here
// beside the CallCounter's Sign.
const counter = new CallCounter();
let opens = 0;
let app: TestApp;
let providers: SocialProviders;
let owned: SocialApplication;

beforeAll(async () => {
  ({ app, providers } = await startSocialTestApp({
    overrides: (defaults) => {
      const sealer: SecretSealer = {
        seal: (applicationId, plaintext) => defaults.sealer.seal(applicationId, plaintext),
        open: (applicationId, sealed) => {
          opens++;
          return defaults.sealer.open(applicationId, sealed);
        },
      };
      return { ...countedBy(counter)(defaults), sealer };
    },
  }));
  counter.watch(app.deps);
  owned = await socialApplication(app, providers);
});
afterAll(() => app?.close());

function measureFrom() {
  counter.reset();
  opens = 0;
  return () => ({ ...counter.snapshot(), kmsDecrypt: opens });
}

/** A start at the provider for `email`: the callback path the provider sent the browser back to. */
async function pendingCallback(email: string): Promise<string> {
  githubSignsIn(providers, email);
  const { start, callbackPath } = await startAtProvider(app, providers, {
    applicationId: owned.applicationId,
    provider: 'github',
    ip: freshIp(),
  });
  expect(start.status, start.text).toBe(302);
  return callbackPath as string;
}

/** The browser that started the sign-in arrives at the callback `path`, the provider's query on it. */
const arrive = (path: string) =>
  app.request('GET', path, { ip: freshIp(), headers: { cookie: browserCookie(app) } });

const codeOf = (location: unknown) => new URL(String(location)).searchParams.get('code') as string;

describe('AWS calls per social sign-in request', () => {
  it("the start: one BatchGetItem, the limit's UpdateItem and the state's PutItem", async () => {
    // Act
    const measured = measureFrom();
    const start = await app.request('GET', withChallenge(`/auth/social/${owned.applicationId}/github`), {
      ip: freshIp(),
    });

    // Assess
    expect(start.status, start.text).toBe(302);
    expect(measured()).toEqual({
      dynamodb: 3,
      commands: ['BatchGetItemCommand', 'UpdateItemCommand', 'PutItemCommand'],
      kmsSign: 0,
      sesSend: 0,
      kmsDecrypt: 0,
    });
  });

  it('the first callback of an address: the state taken, the account read, then one TransactWriteItems', async () => {
    // Prepare
    const path = await pendingCallback(newEmail());

    // Act
    const measured = measureFrom();
    const callback = await arrive(path);

    // Assess
    expect(callback.status, callback.text).toBe(303);
    expect(measured()).toEqual({
      dynamodb: 5,
      commands: [
        'BatchGetItemCommand',
        'UpdateItemCommand',
        'DeleteItemCommand',
        'GetItemCommand',
        'TransactWriteItemsCommand',
      ],
      kmsSign: 0,
      sesSend: 0,
      kmsDecrypt: 1,
    });
  });

  it("a callback of an existing account: the state taken, the account read, the code's PutItem", async () => {
    // Prepare
    const email = newEmail();
    const first = await arrive(await pendingCallback(email));
    expect(first.status, first.text).toBe(303);
    const path = await pendingCallback(email);

    // Act
    const measured = measureFrom();
    const callback = await arrive(path);

    // Assess
    expect(callback.status, callback.text).toBe(303);
    expect(measured()).toEqual({
      dynamodb: 5,
      commands: [
        'BatchGetItemCommand',
        'UpdateItemCommand',
        'DeleteItemCommand',
        'GetItemCommand',
        'PutItemCommand',
      ],
      kmsSign: 0,
      sesSend: 0,
      kmsDecrypt: 1,
    });
  });

  it("the exchange: the key's two GetItem (key, application), its own two GetItem and the sign-in transaction, one Sign", async () => {
    // Prepare
    const codes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const callback = await arrive(await pendingCallback(newEmail()));
      expect(callback.status, callback.text).toBe(303);
      codes.push(codeOf(callback.headers.location));
    }

    // Act
    const calls = [];
    for (const code of codes) {
      const measured = measureFrom();
      const exchanged = await exchangeCode(app, owned.publicKey, code);
      expect(exchanged.status, exchanged.text).toBe(200);
      calls.push(measured());
    }

    // Assess: the key's first use in a minute is noted (docs/api.md, "API keys"), the second is not.
    const own = ['GetItemCommand', 'GetItemCommand', 'TransactWriteItemsCommand'];
    const key = ['GetItemCommand', 'GetItemCommand'];
    expect(calls).toEqual([
      {
        dynamodb: 6,
        commands: [...key, 'UpdateItemCommand', ...own],
        kmsSign: 1,
        sesSend: 0,
        kmsDecrypt: 0,
      },
      { dynamodb: 5, commands: [...key, ...own], kmsSign: 1, sesSend: 0, kmsDecrypt: 0 },
    ]);
  });
});
