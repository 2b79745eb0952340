import { getAddress, Wallet } from 'ethers';
import type { DataSource, EntityManager } from 'typeorm';
import type { ApiKeyEntity } from '../auth/api-key.entity';
import type { ApiKeysService } from '../auth/api-keys.service';
import type { AuditService } from '../audit/audit.service';
import { loadConfig } from '../config/app-config';
import { KeyOwnershipService } from './key-ownership.service';
import type { NameControlService } from './name-control.service';
import { NotNameControllerError } from './portal.errors';

describe(KeyOwnershipService.name, () => {
  const issuer = Wallet.createRandom().address.toLowerCase();
  const key = (i: number, parentNames: string[]): ApiKeyEntity =>
    ({ id: `key-${i}`, issuedBy: issuer, revokedAt: null, suspendedReason: null, parentNames }) as ApiKeyEntity;

  it('checks each parent once per round whatever the number of keys, and suspends every key of a lost parent', async () => {
    const keys = [
      ...Array.from({ length: 200 }, (_, i) => key(i, ['oak.eth'])),
      ...Array.from({ length: 50 }, (_, i) => key(200 + i, ['pine.eth', 'oak.eth'])),
    ];
    const checks: string[] = [];
    const control = {
      control: (_: string, parent: string) => {
        checks.push(parent);
        return parent === 'oak.eth'
          ? Promise.reject(new NotNameControllerError('sold'))
          : Promise.resolve({ name: parent, role: 'manager', wrapped: false });
      },
    };
    const suspended = new Map<string, string | null>();
    const apiKeys = {
      listLivePortalKeys: () => Promise.resolve(keys),
      setSuspension: (_: EntityManager, id: string, reason: string | null) => {
        suspended.set(id, reason);
        return Promise.resolve(true);
      },
    };
    const runner = { connect: async () => {}, release: async () => {}, query: async () => [{ locked: true }] };
    const dataSource = {
      createQueryRunner: () => runner,
      transaction: (fn: (m: EntityManager) => unknown) => fn({} as EntityManager),
    };
    const audit = { record: async () => {} };
    const sut = new KeyOwnershipService(
      apiKeys as unknown as ApiKeysService,
      control as unknown as NameControlService,
      audit as unknown as AuditService,
      loadConfig({ NODE_ENV: 'test' }),
      dataSource as unknown as DataSource,
    );
    await sut.recheckAll();
    expect(checks.sort()).toEqual(['oak.eth', 'pine.eth']);
    expect(suspended.size).toBe(250);
    expect(new Set(suspended.values())).toEqual(
      new Set([`its issuer ${getAddress(issuer)} no longer controls oak.eth`]),
    );
  });
});
