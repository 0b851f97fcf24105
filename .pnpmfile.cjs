// pnpm hooks: adjustments to third-party manifests, each with its reason.
module.exports = {
  hooks: {
    readPackage(manifest) {
      // @nestjs/swagger lists TypeScript as an optional peer for its compile-time plugin, which
      // this project does not use. Resolved against the workspace's own TypeScript, it would put
      // the compiler (23 MB) into the production image; the runtime never loads it.
      if (manifest.name === '@nestjs/swagger' && manifest.peerDependencies) {
        delete manifest.peerDependencies.typescript;
        if (manifest.peerDependenciesMeta) delete manifest.peerDependenciesMeta.typescript;
      }
      return manifest;
    },
  },
};
