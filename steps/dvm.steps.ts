/** The DVM, its scheduler, and the tools and jobs a scenario starts with. */
import { Given, When } from '@cucumber/cucumber';
import { describeStatus, Status } from '../seam/pmix';
import { accepted, ACCEPTED, spawn } from './support/actions';
import { splitNames } from './support/values';
import type { ConformanceWorld } from './support/world';

Given('a DVM whose startup nodes are {string} with {int} slots each', function (this: ConformanceWorld, names: string, slots: number) {
  for (const name of splitNames(names)) this.setup.startupNodes.push({ name, slots });
});

Given('the scheduler can grant nodes {string} with {int} slots each', function (this: ConformanceWorld, names: string, slots: number) {
  for (const name of splitNames(names)) this.setup.schedulerNodes.push({ name, slots });
});

Given('tool {string} is connected', async function (this: ConformanceWorld, alias: string) {
  await this.ready();
  const { proc } = await this.call('connectTool', () => this.impl.connectTool({ label: alias }));
  this.tools.set(alias, proc);
});

Given('job {string} is running {int} process(es), launched by tool {string}', async function (this: ConformanceWorld, alias: string, np: number, tool: string) {
  const result = await spawn(this, { kind: 'tool', alias: tool }, alias, [{ cmd: alias, np }], [], { setup: true });
  if (!accepted(result.status)) this.fail(`job ${alias} to start (${ACCEPTED})`, describeStatus(result.status));
});

When('job {string} terminates', async function (this: ConformanceWorld, alias: string) {
  const nspace = this.jobNspace(alias);
  const ack = await this.call('terminateJob', () => this.impl.terminateJob({ nspace }));
  if (ack.status !== Status.PMIX_SUCCESS) this.fail(`job ${alias} to terminate`, describeStatus(ack.status));
});

When('tool {string} disconnects', async function (this: ConformanceWorld, alias: string) {
  const proc = this.tool(alias);
  const ack = await this.call('disconnectTool', () => this.impl.disconnectTool({ proc }));
  if (ack.status !== Status.PMIX_SUCCESS) this.fail(`tool ${alias} to disconnect`, describeStatus(ack.status));
});
