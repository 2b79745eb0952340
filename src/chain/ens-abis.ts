import { Interface } from 'ethers';

/** The parts of ENS's contracts that the service and the CLI read and write (ENS registry, Name Wrapper). */
export const REGISTRY = new Interface([
  'function owner(bytes32 node) view returns (address)',
  'function resolver(bytes32 node) view returns (address)',
  'function setResolver(bytes32 node, address resolver)',
]);

export const NAME_WRAPPER = new Interface([
  'function ownerOf(uint256 id) view returns (address)',
  'function getData(uint256 id) view returns (address owner, uint32 fuses, uint64 expiry)',
  'function setResolver(bytes32 node, address resolver)',
]);

export const ERC165 = new Interface(['function supportsInterface(bytes4 interfaceId) view returns (bool)']);

/** ENSIP-10's resolve and the EIP-3668 revert it answers with. */
export const EXTENDED_RESOLVER = new Interface([
  'function resolve(bytes name, bytes data) view returns (bytes)',
  'function signers(address signer) view returns (bool)',
  'error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData)',
  'error SignatureExpired(uint64 expires, uint256 timestamp)',
  'error InvalidSigner(address recovered)',
  'error ECDSAInvalidSignature()',
  'error ECDSAInvalidSignatureLength(uint256 length)',
  'error ECDSAInvalidSignatureS(bytes32 s)',
]);

export const RECORDS = new Interface(['function addr(bytes32 node) view returns (address)']);

export const ENSIP10_INTERFACE_ID = '0x9061b923';
/** The Name Wrapper fuse that freezes a wrapped name's resolver. */
export const CANNOT_SET_RESOLVER = 8;
