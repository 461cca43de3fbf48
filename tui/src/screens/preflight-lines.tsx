import { Box, Text } from 'ink';
import { Tone } from '../components/theme.js';
import type { Outcome, PreflightView } from './walk-state.js';

const stepLabels = { reachable: 'core reachable', keyAccepted: 'api-key accepted', tenantExists: 'tenant exists' } as const;

/** The pre-flight as it ran: each step, the core's versions and round-trip time, or the one sentence to act on. */
export function PreflightLines({ preflight }: { preflight: Outcome<PreflightView> }) {
  if (preflight.state === 'idle') return <Tone tone="muted">Enter runs the pre-flight: /hello, /apiversion and the tenant path; nothing is written.</Tone>;
  if (preflight.state === 'running') return <Text>Checking the core…</Text>;
  if (preflight.state === 'failed') return <Tone tone="error">{`✗ ${preflight.message}`}</Tone>;
  const { report } = preflight.value;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {report.steps.map((step) => (
          <Text key={step.name}>
            <Tone tone={step.status === 'ok' ? 'ok' : step.status === 'failed' ? 'error' : 'muted'}>
              {step.status === 'ok' ? '✓ ' : step.status === 'failed' ? '✗ ' : '- '}
            </Tone>
            {`${stepLabels[step.name]}   `}
          </Text>
        ))}
      </Text>
      <Text wrap="truncate-end">{`${report.target}${report.roundTripMs === undefined ? '' : ` · round trip ${report.roundTripMs.toFixed(1)} ms`}`}</Text>
      {report.versions === undefined ? null : <Text wrap="wrap">{`API versions: ${report.versions.join(', ')}`}</Text>}
      {report.failure === undefined ? null : <Tone tone="error">{report.failure.sentence}</Tone>}
    </Box>
  );
}
