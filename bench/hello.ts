/** Reference handler for the bundle benchmark: the smallest possible Lambda. */
export const handler = async () => ({ statusCode: 200, body: 'ok' });
