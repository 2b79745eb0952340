import { labelLength } from '../common/ens/names';
import type { HolderPolicyEntity } from './holder-policy.entity';

/** Why the policy's label rules refuse a (normalised) label, or null. */
export function labelProblem(policy: HolderPolicyEntity, label: string): string | null {
  const { minLength, maxLength } = policy.labels;
  const length = labelLength(label);
  if (length < minLength) {
    return `label "${label}" is shorter than the ${minLength} characters the policy of ${policy.parentName} requires (minLength)`;
  }
  if (length > maxLength) {
    return `label "${label}" is longer than the ${maxLength} characters the policy of ${policy.parentName} allows (maxLength)`;
  }
  return null;
}

/** Why the policy refuses a claim by `owner` (EIP-55), or null. */
export function claimRefusal(policy: HolderPolicyEntity, owner: string): string | null {
  if (policy.claims === 'closed') return `claims are closed under ${policy.parentName} (claims: "closed")`;
  if (policy.claims === 'allowlist' && !policy.allowlist.some((a) => a.toLowerCase() === owner.toLowerCase())) {
    return `${owner} is not on the allowlist of ${policy.parentName}`;
  }
  return null;
}

/** Why the policy refuses a holder setting these text keys, coins or the contenthash, or null. */
export function recordRefusal(
  policy: HolderPolicyEntity,
  textKeys: string[],
  coins: number[],
  contenthash: boolean,
): string | null {
  const { texts, addresses, contenthash: mayContenthash } = policy.holderRecords;
  const where = `under ${policy.parentName} (holderRecords)`;
  if (!texts.includes('*')) {
    const key = textKeys.find((k) => !texts.includes(k));
    if (key !== undefined) return `holders may not set the text key "${key}" ${where}`;
  }
  if (!addresses.includes('*')) {
    const coin = coins.find((c) => !addresses.includes(c));
    if (coin !== undefined) return `holders may not set the address of coin ${coin} ${where}`;
  }
  if (contenthash && !mayContenthash) return `holders may not set the contenthash ${where}`;
  return null;
}

/** The parent and label of a normalised subname. */
export function splitName(fullName: string): { label: string; parentName: string } {
  const dot = fullName.indexOf('.');
  return { label: fullName.slice(0, dot), parentName: fullName.slice(dot + 1) };
}
