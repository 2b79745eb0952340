/** node-gyp-build ships no types: it loads the prebuilt (or locally built) addon of a package folder. */
declare module 'node-gyp-build' {
  function load(packageFolder: string): unknown;
  export default load;
}
