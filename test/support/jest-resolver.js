// multiformats and @ensdomains/content-hash ship ESM only; jest's CommonJS runtime needs their `import` entry
// points, which ts-jest then transforms. Everything else resolves as usual.
const ESM_ONLY = /^(multiformats|@multiformats\/|@ensdomains\/content-hash|@noble\/(hashes|curves)\/?)/;
// Mirrors transformIgnorePatterns: an `import` entry point under any other package (an older, dual-format copy
// nested there, such as uint8arrays' multiformats 9 used by the mint SDK) would not be transformed, so such a
// copy resolves to its CommonJS build when it has one.
const NOT_TRANSFORMED =
  /\/node_modules\/(?!(?:.*\/node_modules\/)?(?:@ensdomains\/content-hash|multiformats|@multiformats|@noble\/hashes|@noble\/curves)\/)/;

module.exports = (request, options) => {
  if (!ESM_ONLY.test(request)) return options.defaultResolver(request, options);
  const esm = options.defaultResolver(request, { ...options, conditions: ['import', 'default', 'node'] });
  if (!NOT_TRANSFORMED.test(esm)) return esm;
  try {
    return options.defaultResolver(request, options);
  } catch {
    return esm;
  }
};
