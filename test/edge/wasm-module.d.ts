// workerd (and bundlers configured for it) import a .wasm file as a compiled module.
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
