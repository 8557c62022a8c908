/**
 * The module boundaries (issue 17 item 6), checked by `npm run lint` (scripts/check-boundaries.mjs adds the
 * cycle check between whole server modules, which dependency-cruiser's file-level rules cannot see).
 * Tests may reach anywhere; type-only imports count like any other.
 */
module.exports = {
  forbidden: [
    {
      name: 'module-internals',
      comment:
        "A server module is used by another only through its index.ts, or its *.tables.ts: the tables are the schema every module's foreign keys and joins share (docs/decisions).",
      severity: 'error',
      from: { path: '^apps/server/src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^apps/server/src/modules/[^/]+/',
        pathNot: [
          '^apps/server/src/modules/$1/',
          '^apps/server/src/modules/[^/]+/index\\.ts$',
          '^apps/server/src/modules/[^/]+/[^/]+\\.tables\\.ts$',
        ],
      },
    },
    {
      name: 'front-doors-name-use-cases',
      comment:
        "A module's index.ts exports what other modules may do (services, use cases), never its store: SQL stays behind its own use cases (issue 26 item 1).",
      severity: 'error',
      from: { path: '^apps/server/src/modules/([^/]+)/index\\.ts$' },
      to: { path: '^apps/server/src/modules/[^/]+/[^/]+\\.store\\.ts$' },
    },
    {
      name: 'credits-only-through-metering',
      comment:
        'Credit reservation, settlement and refund belong to metering: no module but metering reaches the credits module, its front door or its tables (issue 26 item 1).',
      severity: 'error',
      from: {
        path: '^apps/server/src/',
        pathNot: [
          '^apps/server/src/modules/(credits|metering)/',
          '^apps/server/src/modules\\.ts$',
          '\\.test\\.ts$',
          '^apps/server/src/test/',
        ],
      },
      to: { path: '^apps/server/src/modules/credits/' },
    },
    {
      name: 'modules-use-provider-ports',
      comment:
        'A module uses a provider through its port only: from providers/ it may import providers/index.ts, the port files (<area>/<area>-provider.ts, mail/mailer.ts) and the engine pool (its type and failure), never an adapter or its internals (issue 26 item 4). Tests may build adapters.',
      severity: 'error',
      from: { path: '^apps/server/src/modules/', pathNot: '\\.test\\.ts$' },
      to: {
        path: '^apps/server/src/providers/',
        pathNot: [
          '^apps/server/src/providers/index\\.ts$',
          // An area's port is named after it (billing/billing-provider.ts); billing/stripe-provider.ts and
          // billing/test-provider.ts are adapters.
          '^apps/server/src/providers/([^/]+)/\\1-provider\\.ts$',
          '^apps/server/src/providers/mail/mailer\\.ts$',
          '^apps/server/src/providers/engines/engine-pool\\.ts$',
        ],
      },
    },
    {
      name: 'entry-points-through-front-doors',
      comment:
        'The process entry points (main.ts, admin.ts, admin/, app-deps.ts, app.ts) use a module only through its index.ts; modules.ts alone lists the manifests (issue 26 item 2).',
      severity: 'error',
      from: {
        path: '^apps/server/src/(main|admin|app-deps|app|event-handlers)\\.ts$|^apps/server/src/admin/',
        pathNot: '\\.test\\.ts$',
      },
      to: {
        path: '^apps/server/src/modules/[^/]+/',
        pathNot: '^apps/server/src/modules/[^/]+/index\\.ts$',
      },
    },
    {
      name: 'stripe-behind-its-adapter',
      comment:
        "Only the Stripe adapter (providers/billing/stripe-*.ts) imports the stripe package: the billing module reads Stripe's events as the port's provider-neutral ones (issue 26 item 4).",
      severity: 'error',
      from: {
        path: '^apps/',
        pathNot: [
          '^apps/server/src/providers/billing/stripe-[^/]+\\.ts$',
          '\\.test\\.tsx?$',
          '^apps/server/src/test/',
        ],
      },
      to: { path: '(^|/)node_modules/stripe/' },
    },
    {
      name: 'tables-hold-only-tables',
      comment: "A *.tables.ts imports no other module's code but its tables (foreign keys).",
      severity: 'error',
      from: { path: '^apps/server/src/modules/([^/]+)/[^/]+\\.tables\\.ts$' },
      to: {
        path: '^apps/server/src/modules/[^/]+/',
        pathNot: ['^apps/server/src/modules/$1/', '\\.tables\\.ts$'],
      },
    },
    {
      name: 'platform-below-modules',
      comment:
        'platform/ and providers/ are below the modules: they never import one (types of the app aside).',
      severity: 'error',
      from: { path: '^apps/server/src/(platform|providers)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'contracts-import-no-app',
      comment: 'The contracts package is shared by the apps and imports nothing from them.',
      severity: 'error',
      from: { path: '^packages/contracts/' },
      to: { path: '^apps/' },
    },
    {
      name: 'web-feature-internals',
      comment: "A web feature does not import another feature's internals: only its index.ts.",
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/', pathNot: '\\.test\\.tsx?$' },
      to: {
        path: '^apps/web/src/features/[^/]+/',
        pathNot: ['^apps/web/src/features/$1/', '^apps/web/src/features/[^/]+/index\\.tsx?$'],
      },
    },
    {
      name: 'web-layers',
      comment:
        'The web app in layers, top to bottom: app/ (router, shell, page loaders) → routes/ (pages) → features/ → ui/ → lib/. A layer imports only those below it (issue 26 item 5): features never import app/ or routes/.',
      severity: 'error',
      from: { path: '^apps/web/src/(routes|features|ui|lib)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^apps/web/src/app/' },
    },
    {
      name: 'web-layers-routes',
      comment: 'Only app/ composes the pages: features, ui and lib never import routes/.',
      severity: 'error',
      from: { path: '^apps/web/src/(features|ui|lib)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^apps/web/src/routes/' },
    },
    {
      name: 'web-layers-features',
      comment: 'ui/ and lib/ are below the features.',
      severity: 'error',
      from: { path: '^apps/web/src/(ui|lib)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'web-layers-ui',
      comment: 'lib/ is the bottom: no component of ui/.',
      severity: 'error',
      from: { path: '^apps/web/src/lib/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^apps/web/src/ui/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Packages are left out of the graph, but for stripe: rule stripe-behind-its-adapter sees who imports it.
    exclude: { path: '(node_modules/(?!stripe/)|/dist/|\\.tmp/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
