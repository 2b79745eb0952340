// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// ENSIP-10's extended resolver interface (its interface id is resolve's selector, 0x9061b923).
interface IExtendedResolver {
    function resolve(bytes memory name, bytes memory data) external view returns (bytes memory);
}

/// The wildcard resolver an operator puts on a parent name: every query (ENSIP-10 `resolve`) reverts with an
/// EIP-3668 OffchainLookup pointing at the gateway, and `resolveWithProof` accepts the gateway's answer only when
/// one of its signers signed keccak256(0x1900 ‖ this ‖ expires ‖ keccak256(request) ‖ keccak256(result)) and the
/// answer has not expired: the shape of ENS's reference OffchainResolver, on OpenZeppelin 5's ECDSA (65-byte,
/// low-s signatures only).
contract OffchainResolver is IExtendedResolver {
    string public url;
    address public owner;
    mapping(address => bool) public signers;

    event SignerAdded(address signer);
    event SignerRemoved(address signer);

    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    error SignatureExpired(uint64 expires, uint256 timestamp);
    error InvalidSigner(address recovered);
    error NotOwner(address sender);

    constructor(string memory url_, address[] memory signers_) {
        url = url_;
        owner = msg.sender;
        for (uint256 i = 0; i < signers_.length; i++) {
            signers[signers_[i]] = true;
            emit SignerAdded(signers_[i]);
        }
    }

    /// Rotation: add the new signer, switch the gateway's key, then remove the old signer.
    function setSigner(address signer, bool trusted) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        signers[signer] = trusted;
        if (trusted) emit SignerAdded(signer);
        else emit SignerRemoved(signer);
    }

    function makeSignatureHash(
        address target,
        uint64 expires,
        bytes memory request,
        bytes memory result
    ) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(hex"1900", target, expires, keccak256(request), keccak256(result)));
    }

    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory) {
        bytes memory callData = abi.encodeWithSelector(IExtendedResolver.resolve.selector, name, data);
        string[] memory urls = new string[](1);
        urls[0] = url;
        revert OffchainLookup(address(this), urls, callData, this.resolveWithProof.selector, callData);
    }

    /// The EIP-3668 callback: `response` is the gateway's abi.encode(result, expires, signature), `extraData` the
    /// request this contract handed out.
    function resolveWithProof(bytes calldata response, bytes calldata extraData) external view returns (bytes memory) {
        (bytes memory result, uint64 expires, bytes memory sig) = abi.decode(response, (bytes, uint64, bytes));
        if (expires < block.timestamp) revert SignatureExpired(expires, block.timestamp);
        address signer = ECDSA.recover(makeSignatureHash(address(this), expires, extraData, result), sig);
        if (!signers[signer]) revert InvalidSigner(signer);
        return result;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IExtendedResolver).interfaceId || interfaceId == 0x01ffc9a7; // ERC-165
    }
}
