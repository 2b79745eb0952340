// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/**
 * A contract account for tests: ERC-1271 says a signature is its own when its owner's key signed the hash, and
 * the owner sends its transactions (the reverse registrar's claimWithResolver) through execute.
 */
contract Erc1271Wallet {
    bytes4 private constant MAGIC = 0x1626ba7e;
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s) == owner ? MAGIC : bytes4(0xffffffff);
    }

    function execute(address to, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == owner, "not the owner");
        (bool ok, bytes memory out) = to.call(data);
        require(ok, "call failed");
        return out;
    }
}

/** Deploys Erc1271Wallet at a CREATE2 address known in advance: the factory of an ERC-6492 signature. */
contract Erc1271WalletFactory {
    function deploy(address owner, bytes32 salt) external returns (address) {
        return address(new Erc1271Wallet{salt: salt}(owner));
    }

    function addressOf(address owner, bytes32 salt) external view returns (address) {
        bytes32 code = keccak256(abi.encodePacked(type(Erc1271Wallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, code)))));
    }
}
