import type { Signer } from '../shared/crypto/signer.ts';
import type { Deps } from '../shared/deps.ts';
import type { Mailer } from '../shared/mail/mailer.ts';

/**
 * Counts AWS calls a request makes: DynamoDB commands (SDK middleware), KMS-style signs and emails
 * sent. The bench's instrument (`npm run bench -- calls`); test/http/call-budget.test.ts measures
 * with it too.
 */
export class CallCounter {
  dynamodb: string[] = [];
  signs = 0;
  mails = 0;

  reset(): void {
    this.dynamodb = [];
    this.signs = 0;
    this.mails = 0;
  }

  /** Wraps a real signer so every `sign` (the KMS Sign call in production) is counted. */
  signer(real: Signer): Signer {
    return {
      activeKey: () => real.activeKey(),
      publicKeys: () => real.publicKeys(),
      sign: (input) => {
        this.signs++;
        return real.sign(input);
      },
    };
  }

  /** Wraps the real mailer so every accepted send is counted. */
  mailer(real: Mailer): Mailer {
    return {
      send: async (message) => {
        this.mails++;
        await real.send(message);
      },
      // One SES GetSuppressedDestination per start, made beside its first DynamoDB read; not a send.
      isSuppressed: (address) => real.isSuppressed(address),
    };
  }

  /** Counts every command sent through the app's DynamoDB client (one per network call). */
  watch(deps: Deps): void {
    deps.db.client.middlewareStack.add(
      (next, context) => async (args) => {
        this.dynamodb.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'callCounter' },
    );
  }

  snapshot() {
    return {
      dynamodb: this.dynamodb.length,
      commands: [...this.dynamodb],
      kmsSign: this.signs,
      sesSend: this.mails,
    };
  }
}
