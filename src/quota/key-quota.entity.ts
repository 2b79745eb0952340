import { Check, Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { ApiKeyEntity } from '../auth/api-key.entity';

/** Creations allowed and made per API key; charged by one conditional UPDATE. */
@Entity({ name: 'key_quotas' })
@Check('CHK_key_quotas_used', '"used" >= 0')
export class KeyQuotaEntity {
  @PrimaryColumn({ name: 'api_key_id', type: 'uuid' }) apiKeyId: string;

  @OneToOne(() => ApiKeyEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_key_id', foreignKeyConstraintName: 'FK_key_quotas_api_key' })
  apiKey?: ApiKeyEntity;

  @Column({ name: 'quota_limit', type: 'integer' }) limit: number;

  @Column({ type: 'integer', default: 0 }) used: number;
}
