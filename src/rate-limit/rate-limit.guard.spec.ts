import express from 'express';
import { normalizeIp } from '@nestjs/throttler';
import request from 'supertest';
import { TrustProxy } from '../config/app-config';
import { AddressTracker } from './rate-limit.guard';

/** Every TRUST_PROXY shape the configuration accepts. */
const SETTINGS: TrustProxy[] = [false, 0, 1, 2, true, ['loopback'], ['10.0.0.0/8', '127.0.0.1'], ['192.0.2.1']];
const FORWARDED = [
  undefined,
  '203.0.113.7',
  '203.0.113.7, 198.51.100.2',
  '2001:db8:1:2:3:4:5:6, 10.1.2.3',
  'garbage, , 198.51.100.9',
];

describe(AddressTracker.name, () => {
  it.each(SETTINGS.map((s) => [JSON.stringify(s), s]))(
    'tracks the address Express derives (req.ip) under TRUST_PROXY %s, whatever X-Forwarded-For says',
    async (_, setting) => {
      const app = express();
      app.set('trust proxy', setting);
      const tracker = new AddressTracker(setting);
      app.get('/', (req, res) => {
        res.json({ express: `ip:${req.ip ? normalizeIp(req.ip) : 'unknown'}`, ours: tracker.of(req) });
      });
      for (const xff of FORWARDED) {
        const req = request(app).get('/');
        if (xff !== undefined) void req.set('X-Forwarded-For', xff);
        const { body } = await req.expect(200);
        expect(body.ours).toBe(body.express);
      }
    },
  );
});
