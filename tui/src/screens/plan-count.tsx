import { Text } from 'ink';
import { Tone } from '../components/theme.js';
import type { PlanView } from './walk-state.js';

/** The live count while the plan streams, then its one-line result; a failed read says where and why. */
export function PlanCount({ plan, current }: { plan: PlanView; current: boolean }) {
  if (plan.failure !== undefined) return <Tone tone="error">{`✗ ${plan.failure}`}</Tone>;
  const counted = `${plan.records.toLocaleString('en-US')} records → ${plan.operations.toLocaleString('en-US')} operations`;
  if (plan.summary === undefined || !current) return <Text>{`Reading the plan… ${counted}`}</Text>;
  const rejected = plan.summary.rejected;
  return (
    <Text>
      <Tone tone="ok">✓ </Tone>
      {`${counted}${rejected > 0 ? `, ${rejected.toLocaleString('en-US')} of them rejected (see Review)` : ''}`}
    </Text>
  );
}
