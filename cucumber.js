// Profiles: `default` runs the suite and prints progress; `reports` also
// writes the HTML, JUnit and message reports to reports/.
const common = {
  paths: ['features/**/*.feature'],
  requireModule: ['ts-node/register/transpile-only'],
  require: ['steps/**/*.ts'],
  worldParameters: { adapter: 'reference/adapter' },
  strict: true,
};

module.exports = {
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
