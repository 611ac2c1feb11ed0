import type { SuiteResult } from '../../workflows/index.js';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

const escape = (text: string): string =>
  text
    .replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char)
    // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids are what this removes
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * A suite as JUnit XML, the format CI systems read: one test case per
 * cassette; a changed outcome or a divergence is a failure, an unusable
 * cassette an error.
 */
export function junitXml(result: SuiteResult): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = result.cases.reduce((sum, item) => sum + item.ms, 0);
  const cases = result.cases.map((item) => {
    const open = `    <testcase classname="forkpoint.suite.${escape(result.build)}" name="${escape(item.name)}" time="${seconds(item.ms)}"`;
    switch (item.status) {
      case 'passed':
        return `${open}/>`;
      case 'failed':
        return `${open}>\n      <failure type="outcome-changed" message="${escape(`recorded ${item.recorded ?? '?'}, replayed ${item.replayed ?? '?'}`)}"/>\n    </testcase>`;
      case 'diverged':
        return `${open}>\n      <failure type="diverged" message="${escape(item.divergence?.message ?? 'diverged')}">${escape(
          (item.divergence?.diff ?? [])
            .map((change) => `${change.path}: ${change.before} -> ${change.after}`)
            .join('\n'),
        )}</failure>\n    </testcase>`;
      case 'invalid':
        return `${open}>\n      <error type="${escape(item.error?.code ?? 'INVALID')}" message="${escape(item.error?.message ?? '')}"/>\n    </testcase>`;
    }
  });
  const counts = `tests="${result.cases.length}" failures="${result.failed + result.diverged}" errors="${result.invalid}" time="${seconds(total)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="forkpoint suite" ${counts}>`,
    `  <testsuite name="replay:strict ${escape(result.build)}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
