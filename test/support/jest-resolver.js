// multiformats and @ensdomains/content-hash ship ESM only; jest's CommonJS runtime needs their `import` entry
// points, which ts-jest then transforms. Everything else resolves as usual.
const ESM_ONLY = /^(multiformats|@multiformats\/|@ensdomains\/content-hash)/;

module.exports = (request, options) =>
  ESM_ONLY.test(request)
    ? options.defaultResolver(request, { ...options, conditions: ['import', 'default', 'node'] })
    : options.defaultResolver(request, options);
