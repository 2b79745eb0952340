import 'reflect-metadata';
import { Controller, Get, Module, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller('api/v1/subnames')
class C {
  @Get(':fullName')
  find(@Param('fullName') fullName: string) {
    return { id: 'x', fullName, texts: {}, addresses: {}, metadata: {} };
  }
}
@Module({ controllers: [C] })
class M {}
void (async () => {
  const app = await NestFactory.create(M, { logger: false });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
})();
