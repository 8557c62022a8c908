Object.defineProperty(exports, '__esModule', { value: true });
/**
 * `npm run bench`: runs every bench/*.bench.ts in turn. Each prints its figures and its ratio against
 * a baseline measured in the same run, so the numbers compare like with like on this machine.
 */
var node_fs_1 = require('node:fs');
var node_path_1 = require('node:path');
var node_url_1 = require('node:url');
var dir = import.meta.dirname;
var only = process.argv[2];
var files = node_fs_1.default
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
for (var _i = 0, files_1 = files; _i < files_1.length; _i++) {
  var file = files_1[_i];
  console.log('\n# '.concat(file));
  var mod = await Promise.resolve(
    ''.concat((0, node_url_1.pathToFileURL)(node_path_1.default.join(dir, file)).href),
  ).then((s) => require(s));
  await mod.run();
}
