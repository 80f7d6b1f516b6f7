import { describe, expect, it } from 'vitest';
import { dependencyCycle } from './references.ts';

describe('dependencyCycle (the stack test relies on it)', () => {
  it('finds a cycle through Ref, Fn::GetAtt and DependsOn', () => {
    expect(
      dependencyCycle({
        A: { Properties: { Value: { Ref: 'B' } } },
        B: { Properties: { Value: { 'Fn::GetAtt': ['C', 'Arn'] } } },
        C: { DependsOn: ['A'] },
      }),
    ).toEqual(['A', 'B', 'C', 'A']);
  });

  it('accepts a graph without one', () => {
    expect(dependencyCycle({ A: { Properties: { Value: { Ref: 'B' } } }, B: {} })).toEqual([]);
  });
});
