/**
 * The hang guard's hooks (the logic is hang-guard.ts): a new guard per run,
 * and once it has tripped, every scenario skipped with the reason. Defined
 * before steps/support/hooks.ts's (support files load in name order), so a
 * scenario skipped here never contacts the implementation.
 */
import { Before, BeforeAll, type World } from '@cucumber/cucumber';
import { resetGuard, scenarioStarted, SKIP_MEDIA_TYPE, STOPPED_MEDIA_TYPE, stoppedBecause } from './hang-guard';

let announced = false;

BeforeAll(function () {
  // Once per run (a process may make several: tools/lib/suite-worker.ts).
  resetGuard();
  announced = false;
});

Before(function (this: World) {
  scenarioStarted();
  const verdict = stoppedBecause();
  if (!verdict) return undefined;
  if (!announced) {
    announced = true;
    this.attach(JSON.stringify({ verdict }), STOPPED_MEDIA_TYPE);
  }
  const reason = `not run: the run stopped early: ${verdict}`;
  this.log(`skipped: ${reason}`);
  this.attach(JSON.stringify({ reason, capability: 'hang-guard', capabilities: ['(none: the run stopped early, the implementation hung)'] }), SKIP_MEDIA_TYPE);
  return 'skipped';
});
