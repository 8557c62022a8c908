/** The package ships JavaScript only; espeak-engine.ts describes the parts it uses. */
declare module '@echogarden/espeak-ng-emscripten' {
  const createModule: () => Promise<unknown>;
  export default createModule;
}
