/**
 * What changed between two conformance reports (two runs, or two implementations):
 *
 *   node -r ./tools/register.js tools/compare-reports.ts A/conformance.json B/conformance.json
 *
 * Prints newly failing, newly passing and otherwise changed scenarios and
 * clauses. Informational: exits 0 whatever changed (2 if a file is unreadable).
 */
import * as fs from 'node:fs';
import { compareReports, renderComparison } from './lib/compare';
import { assertValidReport, type ConformanceReport } from './lib/report';

export function readReport(file: string): ConformanceReport {
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read report ${file}: ${(e as Error).message}`);
  }
  try {
    assertValidReport(data);
  } catch (e) {
    throw new Error(`${file} is not a conformance report (reports/conformance.json): ${(e as Error).message.split('\n').slice(1, 4).join('; ')}`);
  }
  return data;
}

export function compareFiles(a: string, b: string): string {
  return renderComparison(compareReports(readReport(a), readReport(b)));
}

if (require.main === module) {
  const args = process.argv.slice(2);
  if (args.length !== 2 || args.includes('--help')) {
    console.error('usage: tools/compare-reports.ts A.json B.json   (two reports/conformance.json files)');
    process.exit(args.includes('--help') ? 0 : 2);
  }
  try {
    console.log(compareFiles(args[0], args[1]));
  } catch (e) {
    console.error(`compare-reports: ${(e as Error).message}`);
    process.exit(2);
  }
}
