import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';

const client = new SESv2Client({});

export const firstCall = () =>
  client.send(
    new SendEmailCommand({
      FromEmailAddress: 'floor@bench.test',
      Destination: { ToAddresses: ['floor@bench.test'] },
      Content: { Simple: { Subject: { Data: 'floor' }, Body: { Text: { Data: 'floor' } } } },
    }),
  );
