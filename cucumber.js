// Profiles: `default` runs the suite and prints progress; `reports` also
// writes the HTML, JUnit and message reports to reports/. Feature paths
// default to features/**/*.feature; give paths on the command line to run fewer.
const common = {
  requireModule: ['ts-node/register/transpile-only'],
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
