/**
 * Parameter types, so steps read as the specification speaks: actors
 * ("tool \"T\"", "job \"A\"", "the scheduler"), PMIx status names and
 * allocation directives.
 */
import { defineParameterType } from '@cucumber/cucumber';
import { Directive, Status, type DirectiveName, type StatusName } from '../../seam/pmix';

export type Actor = { kind: 'scheduler' } | { kind: 'tool'; alias: string } | { kind: 'job'; alias: string; rank: number };

defineParameterType({
  name: 'actor',
  regexp: /the scheduler|tool "[^"]+"|job "[^"]+"(?: rank \d+)?/,
  transformer(text: string): Actor {
    if (text === 'the scheduler') return { kind: 'scheduler' };
    const tool = /^tool "([^"]+)"$/.exec(text);
    if (tool) return { kind: 'tool', alias: tool[1] };
    const job = /^job "([^"]+)"(?: rank (\d+))?$/.exec(text)!;
    return { kind: 'job', alias: job[1], rank: job[2] ? Number(job[2]) : 0 };
  },
});

defineParameterType({
  name: 'status',
  regexp: /PMIX_[A-Z_]+/,
  transformer(name: string): number {
    if (!(name in Status)) throw new Error(`unknown PMIx status ${name}`);
    return Status[name as StatusName];
  },
});

defineParameterType({
  name: 'directive',
  regexp: /PMIX_ALLOC_[A-Z_]+/,
  transformer(name: string): number {
    if (!(name in Directive)) throw new Error(`unknown allocation directive ${name}`);
    return Directive[name as DirectiveName];
  },
});
