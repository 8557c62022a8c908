// Prints each test leg's counts from Vitest's JSON reports, the tests skipped for a model this machine does
// not have (with why: their `meta.skippedFor`, set by test/needs-models.ts), and the closing line
// "total: N passed, N failed".
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
/** Why tests were skipped for want of a model → how many, and in which files. */
const skipReasons = new Map();
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const leg = {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
  console.log(
    `${path.basename(file, '.json').padEnd(22)} ${leg.passed} passed, ${leg.failed} failed, ${leg.skipped} skipped`,
  );
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      const why = test.meta?.skippedFor;
      if (!why || (test.status !== 'skipped' && test.status !== 'pending')) continue;
      const entry = skipReasons.get(why) ?? { count: 0, files: new Set() };
      entry.count += 1;
      entry.files.add(path.relative(process.cwd(), suite.name));
      skipReasons.set(why, entry);
    }
  }
  passed += leg.passed;
  failed += leg.failed;
  skipped += leg.skipped;
}
for (const [why, { count, files }] of skipReasons)
  console.log(`skipped ${count} test(s) that need a model: ${why} (${[...files].join(', ')})`);
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
