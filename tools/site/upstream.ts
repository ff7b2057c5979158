/** The upstream documents: openpmix/prrte docs/plans/ at the commit the suite pins (spec/README.md), the only place the site links outside itself. */
export const UPSTREAM_COMMIT = 'c22fd181';
export const UPSTREAM_BASE = `https://github.com/openpmix/prrte/blob/${UPSTREAM_COMMIT}/docs/plans/`;
export const UPSTREAM_DOCS: ReadonlySet<string> = new Set(['node-reservation-spec.rst', 'elastic_dvm_spec.rst', 'elastic_dvm_plan.rst', 'grow_campaign.rst']);
