import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { JsonReplyAdapter } from './common/http/json-reply.adapter';
import { buildOpenApiDocument, configureApp } from './app.setup';
import { loadConfig } from './config/app-config';

/**
 * Writes openapi.json from the routes and DTOs, without a database (preview mode builds no providers).
 * With --check it only compares, and fails when the committed file is stale.
 */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: 'postgres://openapi@127.0.0.1/none' });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new JsonReplyAdapter(), {
    preview: true,
    logger: false,
    bodyParser: false,
  });
  configureApp(app, config);
  const text = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  const file = join(__dirname, '..', 'openapi.json');
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      // missing counts as stale
    }
    if (committed !== text) {
      console.error('openapi.json is stale: run `npm run openapi:generate` and commit the result');
      process.exit(1);
    }
    console.log('openapi.json is up to date');
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}

void main();
