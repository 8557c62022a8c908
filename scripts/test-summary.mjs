// Prints each test leg's counts from Vitest's JSON reports and the closing line "total: N passed, N failed".
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let skipped = 0;
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
  passed += leg.passed;
  failed += leg.failed;
  skipped += leg.skipped;
}
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
