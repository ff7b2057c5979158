// Profiles: `default` runs the suite and prints progress; `reports` also
// writes the HTML, JUnit and message reports to reports/. Feature paths
// default to features/**/*.feature; give paths on the command line to run fewer.
const path = require('node:path');

const common = {
  // TypeScript compiled once per file and cached (tools/register.js), not on every run.
  requireModule: [path.join(__dirname, 'tools', 'register.js')],
  require: ['steps/**/*.ts'],
  worldParameters: { adapter: 'adapters/reference' },
  strict: true,
};

module.exports = {
  // For Stryker's cucumber runner: the in-process reference engine, no report files.
  mutation: { ...common, format: [] },
  default: { ...common, format: ['progress'] },
  reports: {
    ...common,
    format: [
      'progress',
      'html:reports/conformance.html',
      'junit:reports/conformance.junit.xml',
      'message:reports/conformance.ndjson',
    ],
  },
};
