/**
 * A small synthetic cucumber message stream, shaped like the `message`
 * formatter's output, for testing the report tools without running cucumber.
 */
export interface FakeStep {
  status: 'PASSED' | 'FAILED' | 'SKIPPED' | 'UNDEFINED' | 'AMBIGUOUS' | 'PENDING';
  type?: string;
  message?: string;
}

export interface FakeScenario {
  uri: string;
  line: number;
  /** For an outline row: the row's line. */
  row?: number;
  name: string;
  tags: string[];
  steps: FakeStep[];
  attachments?: { mediaType: string; body: string }[];
}

export function messageStream(scenarios: FakeScenario[], o: { finished?: boolean } = {}): string {
  const out: unknown[] = [];
  const ts = (s: number) => ({ seconds: 1_700_000_000 + s, nanos: 0 });
  out.push({ meta: { protocolVersion: '32.2.0', implementation: { name: 'cucumber-js', version: '12.9.0' }, runtime: { name: 'node.js', version: '20' }, os: { name: 'linux' }, cpu: { name: 'x64' } } });
  const uris = [...new Set(scenarios.map((s) => s.uri))];
  for (const uri of uris) {
    const children = scenarios
      .filter((s) => s.uri === uri)
      .map((s) => ({
        scenario: {
          id: `ast-${s.uri}-${s.line}`,
          location: { line: s.line, column: 3 },
          examples: s.row ? [{ tableBody: [{ id: `ast-${s.uri}-${s.line}-${s.row}`, location: { line: s.row, column: 7 } }] }] : [],
        },
      }));
    out.push({ source: { uri, data: '…', mediaType: 'text/x.cucumber.gherkin+plain' } });
    out.push({ gherkinDocument: { uri, feature: { children } } });
  }
  scenarios.forEach((s, i) => {
    const astNodeIds = [`ast-${s.uri}-${s.line}`, ...(s.row ? [`ast-${s.uri}-${s.line}-${s.row}`] : [])];
    out.push({ pickle: { id: `p${i}`, uri: s.uri, name: s.name, tags: s.tags.map((name) => ({ name })), astNodeIds, steps: [] } });
  });
  out.push({ testRunStarted: { timestamp: ts(0) } });
  scenarios.forEach((s, i) => {
    out.push({ testCase: { id: `tc${i}`, pickleId: `p${i}`, testSteps: [] } });
    out.push({ testCaseStarted: { id: `tcs${i}`, testCaseId: `tc${i}`, attempt: 0, timestamp: ts(i) } });
    for (const a of s.attachments ?? []) out.push({ attachment: { testCaseStartedId: `tcs${i}`, mediaType: a.mediaType, body: a.body, contentEncoding: 'IDENTITY' } });
    s.steps.forEach((step, j) => {
      out.push({ testStepStarted: { testCaseStartedId: `tcs${i}`, testStepId: `st${i}.${j}`, timestamp: ts(i) } });
      const result: Record<string, unknown> = { status: step.status, duration: { seconds: 0, nanos: 1000 } };
      if (step.message !== undefined) {
        result.message = `${step.type ?? 'Error'}: ${step.message}\n    at somewhere (file.ts:1:1)`;
        result.exception = { type: step.type ?? 'Error', message: step.message };
      }
      out.push({ testStepFinished: { testCaseStartedId: `tcs${i}`, testStepId: `st${i}.${j}`, testStepResult: result, timestamp: ts(i) } });
    });
    out.push({ testCaseFinished: { testCaseStartedId: `tcs${i}`, timestamp: ts(i + 1), willBeRetried: false } });
  });
  if (o.finished !== false) out.push({ testRunFinished: { success: false, timestamp: ts(scenarios.length + 1) } });
  return out.map((m) => JSON.stringify(m)).join('\n') + '\n';
}

export const failureText = (clauses: string, observed: string) =>
  [`clause:    ${clauses}`, 'operation: job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=[allocation R1, allocation R3])', 'expected:  PMIX_ERR_NO_PERMISSIONS (-23)', `observed:  ${observed}`].join('\n');
