import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';

@Controller()
class HelloController {
  @Get('hello')
  hello(): { hello: string } {
    return { hello: 'world' };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

/** The framework's own cost: a bare NestJS app on Fastify answering a constant JSON body. */
async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(HelloModule, new FastifyAdapter({ logger: false }), { logger: false });
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.stdout.write(`listening ${process.env.PORT}\n`);
}

void main();
