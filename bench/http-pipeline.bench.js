var __awaiter =
  (this && this.__awaiter) ||
  ((thisArg, _arguments, P, generator) => {
    function adopt(value) {
      return value instanceof P
        ? value
        : new P((resolve) => {
            resolve(value);
          });
    }
    return new (P || (P = Promise))((resolve, reject) => {
      function fulfilled(value) {
        try {
          step(generator.next(value));
        } catch (e) {
          reject(e);
        }
      }
      function rejected(value) {
        try {
          step(generator['throw'](value));
        } catch (e) {
          reject(e);
        }
      }
      function step(result) {
        result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected);
      }
      step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
  });
var __generator =
  (this && this.__generator) ||
  ((thisArg, body) => {
    var _ = {
        label: 0,
        sent: () => {
          if (t[0] & 1) throw t[1];
          return t[1];
        },
        trys: [],
        ops: [],
      },
      f,
      y,
      t,
      g = Object.create((typeof Iterator === 'function' ? Iterator : Object).prototype);
    return (
      (g.next = verb(0)),
      (g['throw'] = verb(1)),
      (g['return'] = verb(2)),
      typeof Symbol === 'function' &&
        (g[Symbol.iterator] = function () {
          return this;
        }),
      g
    );
    function verb(n) {
      return (v) => step([n, v]);
    }
    function step(op) {
      if (f) throw new TypeError('Generator is already executing.');
      while ((g && ((g = 0), op[0] && (_ = 0)), _))
        try {
          if (
            ((f = 1),
            y &&
              (t =
                op[0] & 2
                  ? y['return']
                  : op[0]
                    ? y['throw'] || ((t = y['return']) && t.call(y), 0)
                    : y.next) &&
              !(t = t.call(y, op[1])).done)
          )
            return t;
          if (((y = 0), t)) op = [op[0] & 2, t.value];
          switch (op[0]) {
            case 0:
            case 1:
              t = op;
              break;
            case 4:
              _.label++;
              return { value: op[1], done: false };
            case 5:
              _.label++;
              y = op[1];
              op = [0];
              continue;
            case 7:
              op = _.ops.pop();
              _.trys.pop();
              continue;
            default:
              if (!((t = _.trys), (t = t.length > 0 && t[t.length - 1])) && (op[0] === 6 || op[0] === 2)) {
                _ = 0;
                continue;
              }
              if (op[0] === 3 && (!t || (op[1] > t[0] && op[1] < t[3]))) {
                _.label = op[1];
                break;
              }
              if (op[0] === 6 && _.label < t[1]) {
                _.label = t[1];
                t = op;
                break;
              }
              if (t && _.label < t[2]) {
                _.label = t[2];
                _.ops.push(op);
                break;
              }
              if (t[2]) _.ops.pop();
              _.trys.pop();
              continue;
          }
          op = body.call(thisArg, _);
        } catch (e) {
          op = [6, e];
          y = 0;
        } finally {
          f = t = 0;
        }
      if (op[0] & 5) throw op[1];
      return { value: op[0] ? op[1] : void 0, done: true };
    }
  });
Object.defineProperty(exports, '__esModule', { value: true });
exports.run = run;
/**
 * The cost of the request pipeline (request id, helmet, validation, error shape, logging off) against a
 * bare Fastify server answering the same JSON, both measured here with autocannon over loopback.
 */
var node_child_process_1 = require('node:child_process');
var node_fs_1 = require('node:fs');
var node_net_1 = require('node:net');
var node_os_1 = require('node:os');
var node_path_1 = require('node:path');
var autocannon_1 = require('autocannon');
var fastify_1 = require('fastify');
var root = node_path_1.default.resolve(import.meta.dirname, '..');
var DURATION_S = 5;
function freePort() {
  return new Promise((resolve) => {
    var s = node_net_1.default.createServer().listen(0, '127.0.0.1', () => {
      var port = s.address().port;
      s.close(() => resolve(port));
    });
  });
}
function load(url) {
  return __awaiter(this, void 0, void 0, function () {
    var result;
    return __generator(this, (_a) => {
      switch (_a.label) {
        case 0:
          return [
            4 /*yield*/,
            (0, autocannon_1.default)({ url: url, connections: 10, duration: DURATION_S }),
          ];
        case 1:
          result = _a.sent();
          return [
            2 /*return*/,
            { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx },
          ];
      }
    });
  });
}
function startParla() {
  return __awaiter(this, void 0, void 0, function () {
    var entry, port, dataDir, child, url, i, _a;
    return __generator(this, (_b) => {
      switch (_b.label) {
        case 0:
          entry = node_path_1.default.join(root, 'apps/server/dist/main.js');
          if (!node_fs_1.default.existsSync(entry)) throw new Error('Build first: npm run build');
          return [4 /*yield*/, freePort()];
        case 1:
          port = _b.sent();
          dataDir = node_fs_1.default.mkdtempSync(
            node_path_1.default.join(node_os_1.default.tmpdir(), 'parla-bench-'),
          );
          child = (0, node_child_process_1.spawn)(process.execPath, [entry], {
            env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
            stdio: 'ignore',
          });
          url = 'http://127.0.0.1:'.concat(port);
          i = 0;
          _b.label = 2;
        case 2:
          if (!(i < 240)) return [3 /*break*/, 9];
          _b.label = 3;
        case 3:
          _b.trys.push([3, 5, , 6]);
          return [4 /*yield*/, fetch(''.concat(url, '/health'))];
        case 4:
          if (_b.sent().ok) return [3 /*break*/, 9];
          return [3 /*break*/, 6];
        case 5:
          _a = _b.sent();
          return [3 /*break*/, 6];
        case 6:
          return [4 /*yield*/, new Promise((r) => setTimeout(r, 250))];
        case 7:
          _b.sent();
          _b.label = 8;
        case 8:
          i++;
          return [3 /*break*/, 2];
        case 9:
          return [
            2 /*return*/,
            {
              url: url,
              stop: () =>
                __awaiter(this, void 0, void 0, function () {
                  return __generator(this, (_a) => {
                    switch (_a.label) {
                      case 0:
                        child.kill('SIGTERM');
                        return [4 /*yield*/, new Promise((r) => child.once('exit', r))];
                      case 1:
                        _a.sent();
                        node_fs_1.default.rmSync(dataDir, { recursive: true, force: true });
                        return [2 /*return*/];
                    }
                  });
                }),
            },
          ];
      }
    });
  });
}
function run() {
  return __awaiter(this, void 0, void 0, function () {
    var bare, bareUrl, parla, baseline_1, health, notFound, row;
    return __generator(this, (_a) => {
      switch (_a.label) {
        case 0:
          bare = (0, fastify_1.default)();
          bare.get('/health', () =>
            __awaiter(this, void 0, void 0, function () {
              return __generator(this, (_a) => [2 /*return*/, { status: 'ok' }]);
            }),
          );
          return [4 /*yield*/, bare.listen({ port: 0, host: '127.0.0.1' })];
        case 1:
          bareUrl = _a.sent();
          return [4 /*yield*/, startParla()];
        case 2:
          parla = _a.sent();
          _a.label = 3;
        case 3:
          _a.trys.push([3, , 7, 10]);
          return [4 /*yield*/, load(''.concat(bareUrl, '/health'))];
        case 4:
          baseline_1 = _a.sent();
          return [4 /*yield*/, load(''.concat(parla.url, '/health'))];
        case 5:
          health = _a.sent();
          return [4 /*yield*/, load(''.concat(parla.url, '/v1/nope'))];
        case 6:
          notFound = _a.sent();
          row = (name, r) =>
            console.log(
              ''
                .concat(name.padEnd(34), ' ')
                .concat(r.rps.toFixed(0).padStart(7), ' req/s  p99 ')
                .concat(String(r.p99).padStart(4), ' ms  ratio ')
                .concat((r.rps / baseline_1.rps).toFixed(2), '  non-2xx/errors ')
                .concat(r.errors),
            );
          row('baseline: bare Fastify JSON', baseline_1);
          row('Parla GET /health (db + engine ping)', health);
          row('Parla JSON 404 (full pipeline)', notFound);
          return [3 /*break*/, 10];
        case 7:
          return [4 /*yield*/, bare.close()];
        case 8:
          _a.sent();
          return [4 /*yield*/, parla.stop()];
        case 9:
          _a.sent();
          return [7 /*endfinally*/];
        case 10:
          return [2 /*return*/];
      }
    });
  });
}
