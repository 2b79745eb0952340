import { ApiKeyEntity } from '../auth/api-key.entity';
import { AuditEventEntity } from '../audit/audit-event.entity';
import { HolderClaimEntity } from '../holders/holder-claim.entity';
import { HolderPolicyEntity } from '../holders/holder-policy.entity';
import { ListingEntity } from '../listings/listing.entity';
import { PrimaryNameEntity } from '../primary-names/primary-name.entity';
import { PortalChallengeEntity } from '../portal/portal-challenge.entity';
import { PortalNameEntity } from '../portal/portal-name.entity';
import { PortalSessionEntity } from '../portal/portal-session.entity';
import { KeyQuotaEntity } from '../quota/key-quota.entity';
import { SubnameEntity } from '../subnames/subname.entity';

/** Every entity of the service; later modules add theirs here. */
export const ENTITIES = [
  ApiKeyEntity,
  KeyQuotaEntity,
  SubnameEntity,
  ListingEntity,
  AuditEventEntity,
  PrimaryNameEntity,
  PortalChallengeEntity,
  PortalSessionEntity,
  PortalNameEntity,
  HolderPolicyEntity,
  HolderClaimEntity,
];
