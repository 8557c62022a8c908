/** The package ships JavaScript only; rnnoise-denoise.ts describes the parts it uses (an Emscripten module). */
declare module '@echogarden/rnnoise-wasm' {
  const createModule: () => Promise<unknown>;
  export default createModule;
}
