import { Wallet } from 'ethers';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuditService } from '../audit/audit.service';
import type { AuditEvent } from '../audit/audit.types';
import type { ChangeFeed } from '../cache/change-feed';
import { EnsChainService, SignatureVerifier } from '../chain/chain.module';
import { loadConfig } from '../config/app-config';
import { ReadRouter } from '../reads/read-router';
import { ReadsRepository } from '../reads/reads.repository';
import type { SubnameRecords, SubnamesService } from '../subnames/subnames.service';
import type { PrimaryNameCache } from './primary-name-cache';
import { PRIMARY_NAME_TYPES, primaryNameDomain } from './primary-name-message';
import type { PrimaryNamesRepository, PrimaryNameWrite } from './primary-names.repository';
import { PrimaryNamesService } from './primary-names.service';

const PUBLIC_URL = 'https://subnames.example.com';
const records = (eth?: string): SubnameRecords => ({
  texts: {},
  addresses: eth ? { '60': eth } : {},
  contenthash: null,
  ttl: null,
});

describe(PrimaryNamesService.name, () => {
  const holder = Wallet.createRandom();
  const other = Wallet.createRandom();
  let stored: Record<string, SubnameRecords>;
  let choices: Map<string, { name: string | null; issuedAt: number }>;
  let events: AuditEvent[];
  let evicted: string[];
  let sut: PrimaryNamesService;
  let rpcCalls: number;

  const now = () => Math.floor(Date.now() / 1000);
  const body = async (name: string, issuedAt = now(), signer = holder, address = holder.address) => ({
    address,
    name,
    issuedAt,
    signature: await signer.signTypedData(primaryNameDomain(1), PRIMARY_NAME_TYPES, {
      addr: address,
      name,
      issuedAt,
      service: PUBLIC_URL,
    }),
  });
  const code = (p: Promise<unknown>) =>
    p.then(
      () => 'stored',
      (e: { code?: string }) => e.code,
    );

  // One frozen instant for the service's clock and the signatures' issuedAt: the window's edges (601 s old, 61 s
  // ahead) stay outside it however long signing takes on a busy machine.
  let clock: jest.SpyInstance<number, []>;
  afterEach(() => clock.mockRestore());

  beforeEach(() => {
    clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now());
    stored = {
      'alice.oak.eth': records(holder.address),
      'bob.oak.eth': records(other.address),
      'empty.oak.eth': records(),
    };
    choices = new Map();
    events = [];
    evicted = [];
    const repository = {
      // The conditional upsert as the statement decides it.
      choose: jest.fn(async (_: EntityManager, w: PrimaryNameWrite) => {
        const last = choices.get(w.address);
        if (last && last.issuedAt >= w.issuedAt) return undefined;
        choices.set(w.address, { name: w.name, issuedAt: w.issuedAt });
        return { previous: last?.name ?? null };
      }),
      findName: jest.fn(async (_: EntityManager, address: string) => choices.get(address)?.name ?? null),
    };
    const cache = {
      get: (address: string, load: () => Promise<string | null>) => load(),
      written: (address: string) => evicted.push(address),
    };
    const subnames = { records: jest.fn(async (name: string) => stored[name] ?? null) };
    const audit = { record: jest.fn(async (_: EntityManager, e: AuditEvent) => void events.push(e)) };
    const dataSource = { transaction: (fn: (m: EntityManager) => unknown) => fn({} as EntityManager), manager: {} };
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL });
    rpcCalls = 0;
    // A chain whose every contract call refuses, counting them.
    const chains = {
      configured: true,
      get: () => ({
        call: () => {
          rpcCalls++;
          return Promise.resolve({ ok: false, revert: '0x' });
        },
      }),
    };
    sut = new PrimaryNamesService(
      repository as unknown as PrimaryNamesRepository,
      cache as unknown as PrimaryNameCache,
      subnames as unknown as SubnamesService,
      audit as unknown as AuditService,
      new SignatureVerifier(chains as unknown as EnsChainService),
      config,
      dataSource as unknown as DataSource,
      new ReadRouter(config, dataSource as unknown as DataSource, {} as ChangeFeed, new ReadsRepository()),
    );
  });

  it('stores a signed choice, audits it as the wallet, evicts the cache, and answers name() with it', async () => {
    const reverse = `${holder.address.slice(2).toLowerCase()}.addr.reverse`;
    expect(await sut.reverseAnswer(reverse)).toBe('');
    expect(await sut.choose(await body('alice.oak.eth'), 'req-1')).toEqual({
      address: holder.address,
      name: 'alice.oak.eth',
      verified: true,
    });
    expect(events).toEqual([
      {
        by: { actor: `wallet:${holder.address}`, requestId: 'req-1' },
        action: 'primary-name.set',
        subject: holder.address,
        before: { name: null },
        after: { name: 'alice.oak.eth' },
      },
    ]);
    expect(evicted).toEqual([holder.address]);
    expect(await sut.reverseAnswer(reverse)).toBe('alice.oak.eth');
    expect(await sut.findOrFail(holder.address)).toEqual({
      address: holder.address,
      name: 'alice.oak.eth',
      verified: true,
    });
    // Once the name points elsewhere: "" to resolution, verified false to GET.
    stored['alice.oak.eth'] = records(other.address);
    expect(await sut.reverseAnswer(reverse)).toBe('');
    expect((await sut.findOrFail(holder.address)).verified).toBe(false);
  });

  it('checks the window first, then the signature, the name, its address and the last issuedAt', async () => {
    expect(await code(sut.choose(await body('nobody.oak.eth', now(), other, holder.address), 'r'))).toBe(
      'UNAUTHORIZED',
    );
    expect(await code(sut.choose(await body('nobody.oak.eth'), 'r'))).toBe('SUBNAME_NOT_FOUND');
    expect(await code(sut.choose(await body('bob.oak.eth'), 'r'))).toBe('FORWARD_MISMATCH');
    expect(await code(sut.choose(await body('empty.oak.eth'), 'r'))).toBe('FORWARD_MISMATCH');
    expect(await code(sut.choose(await body('alice.oak.eth', now() - 601), 'r'))).toBe('STALE_SIGNATURE');
    expect(await code(sut.choose(await body('alice.oak.eth', now() + 61), 'r'))).toBe('STALE_SIGNATURE');
    const first = await body('alice.oak.eth', now() - 5);
    expect(await code(sut.choose(first, 'r'))).toBe('stored');
    expect(await code(sut.choose(first, 'r'))).toBe('STALE_SIGNATURE');
    expect(events).toHaveLength(1);
  });

  it('refuses a stale or early junk signature before any RPC call', async () => {
    const junk = (issuedAt: number) => ({
      address: holder.address,
      name: 'alice.oak.eth',
      issuedAt,
      signature: `0x${'ab'.repeat(120)}`,
    });
    expect(await code(sut.choose(junk(now() - 601), 'r'))).toBe('STALE_SIGNATURE');
    expect(await code(sut.choose(junk(now() + 61), 'r'))).toBe('STALE_SIGNATURE');
    expect(rpcCalls).toBe(0);
    expect(await code(sut.choose(junk(now()), 'r'))).toBe('UNAUTHORIZED');
    expect(rpcCalls).toBe(1);
  });

  it('clears with an empty name, which no older signature can undo', async () => {
    const older = await body('alice.oak.eth', now() - 2);
    await sut.choose(await body('alice.oak.eth', now() - 3), 'r');
    expect(await sut.choose(await body('', now() - 1), 'r')).toEqual({
      address: holder.address,
      name: '',
      verified: false,
    });
    expect(events.at(-1)).toMatchObject({ action: 'primary-name.clear', before: { name: 'alice.oak.eth' } });
    expect(await code(sut.findOrFail(holder.address))).toBe('NOT_FOUND');
    expect(await code(sut.choose(older, 'r'))).toBe('STALE_SIGNATURE');
  });

  it('answers name() only for <40 hex>.addr.reverse', async () => {
    await sut.choose(await body('alice.oak.eth'), 'r');
    expect(await sut.reverseAnswer('alice.oak.eth')).toBe('');
    expect(await sut.reverseAnswer(`x${holder.address.slice(3).toLowerCase()}.addr.reverse`)).toBe('');
  });
});
