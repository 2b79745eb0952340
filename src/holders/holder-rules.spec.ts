import type { HolderPolicyEntity } from './holder-policy.entity';
import { labelProblem } from './holder-rules';

describe(labelProblem.name, () => {
  const policy = {
    parentName: 'oak.eth',
    labels: { minLength: 3, maxLength: 4, reserved: [] },
  } as unknown as HolderPolicyEntity;

  it('counts characters (code points), not UTF-16 units: an emoji is one', () => {
    expect(labelProblem(policy, '💩💩')).toContain('shorter than the 3 characters');
    expect(labelProblem(policy, '💩💩💩')).toBeNull();
    expect(labelProblem(policy, '💩💩💩💩')).toBeNull();
    expect(labelProblem(policy, '💩💩💩💩💩')).toContain('longer than the 4 characters');
  });

  it('holds plain labels to the same bounds', () => {
    expect(labelProblem(policy, 'ab')).toContain('(minLength)');
    expect(labelProblem(policy, 'abc')).toBeNull();
    expect(labelProblem(policy, 'abcde')).toContain('(maxLength)');
  });
});
