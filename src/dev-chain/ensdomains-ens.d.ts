/** @ensdomains/ens ships no types: of the compiled contracts its entry exports, the two we deploy, as deploying reads them. */
declare module '@ensdomains/ens' {
  interface Artifact {
    abi: import('ethers').JsonFragment[];
    bytecode: string;
  }
  export const ENSRegistry: Artifact;
  export const ReverseRegistrar: Artifact;
}
