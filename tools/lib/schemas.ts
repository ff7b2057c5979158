/**
 * The report schemas (schemas/reports/*.json: the conformance report and the
 * expectations file). They live apart from the wire-protocol schemas in
 * schemas/, which are one file per protocol message.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPORT_SCHEMA_DIR = path.resolve(__dirname, '..', '..', 'schemas', 'reports');

let ajv: Ajv2020 | undefined;

/** Compile one schema of schemas/reports (by file name, which is also its $id). */
export function compileSchema(file: string): ValidateFunction {
  ajv ??= new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  const existing = ajv.getSchema(file);
  if (existing) return existing;
  ajv.addSchema(JSON.parse(fs.readFileSync(path.join(REPORT_SCHEMA_DIR, file), 'utf8')), file);
  return ajv.getSchema(file)!;
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `  ${e.instancePath || '(root)'}: ${e.message ?? e.keyword}${e.keyword === 'additionalProperties' ? ` ("${String((e.params as { additionalProperty: string }).additionalProperty)}")` : ''}`).join('\n');
}
