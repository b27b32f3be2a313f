import Fastify from 'fastify';

/** The baseline: a bare Fastify server answering a constant JSON body. */
async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
}

void main();
