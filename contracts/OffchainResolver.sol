// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// ENSIP-10's extended resolver interface (its interface id is resolve's selector, 0x9061b923).
interface IExtendedResolver {
    function resolve(bytes memory name, bytes memory data) external view returns (bytes memory);
}

/// The wildcard resolver an operator puts on a parent name so that its offchain subnames resolve in wallets.
/// Every query (ENSIP-10 `resolve`) reverts with an EIP-3668 OffchainLookup pointing at the gateway; the client
/// fetches the gateway's signed answer and calls `resolveWithProof`, which accepts it only when one of the trusted
/// signers signed keccak256(0x1900 ‖ this ‖ expires ‖ keccak256(request) ‖ keccak256(result)) and it has not
/// expired. Signatures go through OpenZeppelin 5's ECDSA: 65 bytes, low s. The signature binds to this contract as
/// the sender, so the resolver does not advertise ERC-7996 features.
contract OffchainResolver is IExtendedResolver, Ownable2Step {
    /// The gateway's URL template (EIP-3668: `{sender}` and `{data}` are filled in by the client).
    string public url;
    mapping(address => bool) public signers;

    event UrlChanged(string url);
    event SignerAdded(address indexed signer);
    event SignerRemoved(address indexed signer);

    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    error SignatureExpired(uint64 expires, uint256 timestamp);
    error InvalidSigner(address recovered);

    constructor(string memory url_, address[] memory signers_, address owner_) Ownable(owner_) {
        _setUrl(url_);
        for (uint256 i = 0; i < signers_.length; i++) _addSigner(signers_[i]);
    }

    /// Moves the gateway: every later lookup is sent to `url_`.
    function setUrl(string calldata url_) external onlyOwner {
        _setUrl(url_);
    }

    /// Rotation without a gap: add the new signer, switch the gateway's key, then remove the old one.
    function setSigners(address[] calldata add, address[] calldata remove) external onlyOwner {
        for (uint256 i = 0; i < add.length; i++) _addSigner(add[i]);
        for (uint256 i = 0; i < remove.length; i++) {
            signers[remove[i]] = false;
            emit SignerRemoved(remove[i]);
        }
    }

    /// The digest the gateway signs for this contract (ENS's reference SignatureVerifier.makeSignatureHash).
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

    function _setUrl(string memory url_) private {
        url = url_;
        emit UrlChanged(url_);
    }

    function _addSigner(address signer) private {
        signers[signer] = true;
        emit SignerAdded(signer);
    }
}
