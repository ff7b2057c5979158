/**
 * Tag-driven hooks: every scenario gets a fresh implementation; @needs and
 * @without tags decide whether it can run against this implementation, and
 * say why when it cannot.
 */
import { After, Before, setDefaultTimeout, setWorldConstructor } from '@cucumber/cucumber';
import { OPTIONAL_KEYS, type OptionalKeyName } from '../../seam/pmix';
import { SCHEDULER_POLICIES } from './policies';
import { ConformanceWorld } from './world';

setWorldConstructor(ConformanceWorld);

setDefaultTimeout(60_000);

Before(async function (this: ConformanceWorld, { pickle }) {
  const tags = pickle.tags.map((t) => t.name);
  this.clauses = tags.filter((t) => t.startsWith('@clause:')).map((t) => t.slice('@clause:'.length));
  await this.open();
  for (const tag of tags) {
    if (tag.startsWith('@needs:')) {
      const capability = tag.slice('@needs:'.length);
      if (!this.has(capability)) {
        this.attach(`skipped: ${this.description.name} does not declare capability "${capability}"`, 'text/plain');
        return 'skipped';
      }
    }
    if (tag.startsWith('@scheduler:')) {
      // The host scheduler's policy, where the allocation RFC leaves it open; set before any step starts the DVM.
      if (!this.has('scheduler-policy')) {
        this.attach(`skipped: ${this.description.name} cannot choose its scheduler's policy (capability "scheduler-policy")`, 'text/plain');
        return 'skipped';
      }
      const policy = SCHEDULER_POLICIES[tag.slice('@scheduler:'.length)];
      if (!policy) throw new Error(`${tag}: unknown scheduler policy (known: ${Object.keys(SCHEDULER_POLICIES).join(', ')})`);
      this.setup.scheduler = { ...this.setup.scheduler, ...policy };
    }
    if (tag.startsWith('@without:')) {
      const key = tag.slice('@without:'.length) as OptionalKeyName;
      if (!OPTIONAL_KEYS.includes(key)) throw new Error(`@without names ${key}, which is not an optional key`);
      if (!this.has(key)) continue; // the implementation genuinely lacks it
      if (!this.has('emulate-missing-keys')) {
        this.attach(`skipped: ${this.description.name} has ${key} and cannot be started without it`, 'text/plain');
        return 'skipped';
      }
      this.withoutKey(key);
    }
  }
  return undefined;
});

After(async function (this: ConformanceWorld) {
  if (this.impl) await this.impl.stop().catch(() => undefined);
});
