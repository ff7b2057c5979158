/** The four outcomes: a scenario's step results, classified as cucumber reports them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyScenario, classifyStep, parseFailure, stripStack } from '../../tools/lib/outcomes';
import { failureText } from './support/messages';

const passed = { status: 'PASSED' };
const skipped = { status: 'SKIPPED' };
const failedWith = (type: string, message: string) => ({ status: 'FAILED', message: `${type}: ${message}\n    at x (y.ts:1:1)`, exception: { type, message } });

test('a ConformanceFailure or an assertion failure is "failed": the implementation broke a clause', () => {
  assert.equal(classifyStep(failedWith('ConformanceFailure', failureText('NR.x', 'PMIX_SUCCESS (0)'))).outcome, 'failed');
  assert.equal(classifyStep(failedWith('AssertionError', 'Expected values to be strictly equal')).outcome, 'failed');
});

test('an ImplementationFault (crash, hang, protocol error, exception in the adapter) is "errored"', () => {
  const c = classifyStep(failedWith('ImplementationFault', 'implementation fault during spawn: the implementation exited with code 3'));
  assert.deepEqual([c.outcome, c.errorKind, c.exceptionType], ['errored', 'implementation', 'ImplementationFault']);
  assert.equal(classifyStep(failedWith('WireFault', 'no response')).errorKind, 'implementation');
});

test('cucumber\'s own timeout, any other exception, and undefined/ambiguous/pending steps are "errored", each with its kind', () => {
  assert.equal(classifyStep(failedWith('Error', 'function timed out, ensure the promise resolves within 60000 milliseconds')).errorKind, 'timeout');
  assert.equal(classifyStep(failedWith('TypeError', "Cannot read properties of undefined (reading 'status')")).errorKind, 'unexpected');
  for (const status of ['UNDEFINED', 'AMBIGUOUS', 'PENDING']) assert.deepEqual([classifyStep({ status }).outcome, classifyStep({ status }).errorKind], ['errored', 'suite'], status);
});

test('without an exception object, the type is read from the message', () => {
  assert.equal(classifyStep({ status: 'FAILED', message: 'ConformanceFailure: clause: X\nobserved: y' }).outcome, 'failed');
  assert.equal(classifyStep({ status: 'FAILED', message: 'ImplementationFault: implementation fault during start: boom' }).outcome, 'errored');
});

test('a scenario takes the outcome of its first step that did not pass', () => {
  assert.equal(classifyScenario([passed, passed, passed]).outcome, 'passed');
  // A Before hook that skips (capability not declared): the steps after it are skipped too.
  assert.equal(classifyScenario([skipped, skipped, skipped, passed]).outcome, 'skipped');
  const failing = classifyScenario([passed, failedWith('ConformanceFailure', 'observed: x'), skipped, passed]);
  assert.equal(failing.outcome, 'failed');
  assert.equal(classifyScenario([passed, failedWith('ImplementationFault', 'boom'), skipped]).outcome, 'errored');
  // The first problem decides: a fault after a failure does not hide the failure.
  assert.equal(classifyScenario([failedWith('ConformanceFailure', 'x'), failedWith('ImplementationFault', 'stop failed')]).outcome, 'failed');
  // A skipped scenario whose After hook then crashes is not quietly skipped.
  assert.equal(classifyScenario([skipped, skipped, failedWith('ImplementationFault', 'stop failed')]).outcome, 'errored');
  assert.equal(classifyScenario([]).outcome, 'errored');
});

test('the fields of a ConformanceFailure message are parsed, multi-line observations included', () => {
  const f = parseFailure(`${failureText('NR.own.no-narrowing, NR.own.spawn-check', 'state RUNNING;')}\n  rank 0 on s1 running`);
  assert.deepEqual(f, {
    clauses: ['NR.own.no-narrowing', 'NR.own.spawn-check'],
    operation: 'job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=[allocation R1, allocation R3])',
    expected: 'PMIX_ERR_NO_PERMISSIONS (-23)',
    observed: 'state RUNNING;\n  rank 0 on s1 running',
  });
  assert.deepEqual(parseFailure('clause:    (untagged)\nobserved:  x')?.clauses, []);
  assert.equal(parseFailure('implementation fault during spawn: boom'), undefined);
});

test('a stack trace is cut from a message', () => {
  assert.equal(stripStack('Error: boom\n  second line\n    at f (a.ts:1:1)\n    at g (b.ts:2:2)'), 'Error: boom\n  second line');
});
