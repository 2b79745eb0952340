import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { JsonReplyAdapter } from '../../src/common/http/json-reply.adapter';
import { configureApp, mountSwagger } from '../../src/app.setup';
import { loadConfig } from '../../src/config/app-config';
import { metricSample } from './metrics-sample';
import { resetDatabase } from './test-database';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

/** Environment of an app under test: the run's database, an admin token, quiet logs. */
export function testEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is unset: run e2e tests through jest (globalSetup)');
  return {
    NODE_ENV: 'test',
    DATABASE_URL: url,
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: '4',
    // As production signs (every e2e app, in process or not): on the signing thread, checked by TestApp.signing().
    SIGNING_THREAD: 'true',
    // Tests send thousands of requests (and sign-ins) from one address and key; the bound tests set their own limits.
    RATE_LIMIT_PER_KEY: '1000000',
    RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_RESOLUTION_PER_IP: '1000000',
    RATE_LIMIT_PER_HOLDER: '1000000',
    PORTAL_CHALLENGES_PER_CLIENT: '100000',
    ...overrides,
  };
}

export interface TestApp {
  app: NestExpressApplication;
  http: ReturnType<NestExpressApplication['getHttpServer']>;
  dataSource: DataSource;
  /** Issues a key through the admin API and returns it. */
  issueKey(parentNames?: string[], quota?: number): Promise<{ id: string; key: string }>;
  /** Where and how much the app has signed, from its /metrics. */
  signing(): Promise<SigningCounts>;
  close(): Promise<void>;
}

export interface SigningCounts {
  /** signing_thread_up: 1 while signatures are made on the signing thread. */
  threadUp: number;
  /** Mint signatures of both networks and CCIP-Read answers signed. */
  signatures: number;
}

/** Signatures were made, and on the signing thread (signing_thread_up 1), as production makes them. */
export async function expectSignedOnTheThread(app: Pick<TestApp, 'signing'>): Promise<void> {
  const { threadUp, signatures } = await app.signing();
  expect({ threadUp, signed: signatures > 0 }).toEqual({ threadUp: 1, signed: true });
}

/** Boots the whole application in process, with the same global setup as serve.ts. */
export async function createTestApp(
  env: Record<string, string | undefined> = {},
  options: { reset?: boolean } = { reset: true },
): Promise<TestApp> {
  const config = loadConfig(testEnv(env));
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot(config)] }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(new JsonReplyAdapter(), {
    bodyParser: false,
    logger: ['error', 'warn'],
  });
  configureApp(app, config);
  mountSwagger(app);
  await app.init();
  const dataSource = app.get<DataSource>(getDataSourceToken());
  if (options.reset !== false) await resetDatabase(dataSource);
  const http = app.getHttpServer();
  return {
    app,
    http,
    dataSource,
    async issueKey(parentNames = ['oak.eth'], quota?: number) {
      const res = await request(http)
        .post('/api/v1/admin/api-keys')
        .set('x-admin-token', ADMIN_TOKEN)
        .send({ name: 'test', parentNames, ...(quota !== undefined ? { quota } : {}) })
        .expect(201);
      return { id: res.body.id as string, key: res.body.key as string };
    },
    async signing() {
      const metrics = (await request(http).get('/metrics').expect(200)).text;
      return {
        threadUp: metricSample(metrics, 'signing_thread_up'),
        signatures: metricSample(metrics, 'mint_signatures_total') + metricSample(metrics, 'ccip_signatures_total'),
      };
    },
    close: () => app.close(),
  };
}
