import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthenticatedKey } from '../auth/api-key';
import { ApiKeysService } from '../auth/api-keys.service';
import { ExportPreambles } from '../subnames/export-preambles';
import { PolicyResponse, toPolicyResponse } from './dto/policy.response';
import { PutPolicyDto } from './dto/put-policy.dto';
import type { HolderPolicyEntity } from './holder-policy.entity';
import { PolicyNotFoundError } from './holders.errors';
import { HoldersRepository, PolicyWrite } from './holders.repository';

/** The policy a body sets, with every left-out field at its default. */
export function toPolicyWrite(parentName: string, chargedKeyId: string, dto: PutPolicyDto): PolicyWrite {
  return {
    parentName,
    claims: dto.claims ?? 'closed',
    allowlist: dto.allowlist ?? [],
    claimsPerAddress: dto.claimsPerAddress ?? 1,
    labels: {
      minLength: dto.labels?.minLength ?? 3,
      maxLength: dto.labels?.maxLength ?? 63,
      reserved: dto.labels?.reserved ?? [],
    },
    holderRecords: {
      texts: dto.holderRecords?.texts ?? ['*'],
      addresses: dto.holderRecords?.addresses ?? ['*'],
      contenthash: dto.holderRecords?.contenthash ?? true,
    },
    transfers: dto.transfers ?? true,
    deletes: dto.deletes ?? true,
    chargedKeyId,
  };
}

/** A parent's export line of its policy: the PUT body that sets it again, and the parent (issue 32). */
export function toPolicyExportLine(e: HolderPolicyEntity): { policy: Record<string, unknown> } {
  const { parentName, claims, allowlist, claimsPerAddress, labels, holderRecords, transfers, deletes } = e;
  return {
    // An empty allowlist is left out: the PUT body refuses one.
    policy: {
      parentName,
      claims,
      ...(allowlist.length > 0 ? { allowlist } : {}),
      claimsPerAddress,
      labels,
      holderRecords,
      transfers,
      deletes,
    },
  };
}

/** Holder policies: set and removed by a key that covers the parent, read by anyone, and carried by exports. */
@Injectable()
export class PoliciesService implements OnModuleInit {
  constructor(
    private readonly policies: HoldersRepository,
    private readonly keys: ApiKeysService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly preambles: ExportPreambles,
  ) {}

  onModuleInit(): void {
    this.preambles.register(async (parentName) => {
      const policy = await this.policies.find(this.dataSource.manager, parentName);
      return policy && toPolicyExportLine(policy);
    });
  }

  /** `manager`: the portal's transaction, which audits the change with the wallet as actor. */
  async put(
    key: AuthenticatedKey,
    parentName: string,
    dto: PutPolicyDto,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PolicyResponse> {
    this.keys.authorize(key, parentName);
    const stored = await this.policies.put(manager, toPolicyWrite(parentName, key.id, dto));
    return toPolicyResponse(stored, true);
  }

  /** `withAllowlist`: for the name's controller (the portal); the public read shows its size only. */
  async findOrFail(parentName: string, withAllowlist = false): Promise<PolicyResponse> {
    return toPolicyResponse(await this.policyOf(parentName), withAllowlist);
  }

  async remove(key: AuthenticatedKey, parentName: string): Promise<void> {
    this.keys.authorize(key, parentName);
    if (!(await this.policies.remove(this.dataSource.manager, parentName))) throw new PolicyNotFoundError(parentName);
  }

  /** The stored policy of a parent; 404 POLICY_NOT_FOUND when none. */
  async policyOf(parentName: string): Promise<HolderPolicyEntity> {
    const policy = await this.policies.find(this.dataSource.manager, parentName);
    if (!policy) throw new PolicyNotFoundError(parentName);
    return policy;
  }
}
