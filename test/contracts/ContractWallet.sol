// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// A smart-contract account (ERC-1271): a signature is valid when its one owner signed the hash.
contract ContractWallet {
    bytes4 private constant MAGIC = 0x1626ba7e;
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, signature);
        return error == ECDSA.RecoverError.NoError && signer == owner ? MAGIC : bytes4(0xffffffff);
    }
}

/// Deploys ContractWallets at addresses known before deployment (CREATE2): an ERC-6492 signature names this
/// factory and the call that deploys the account, so that it can sign before it exists.
contract ContractWalletFactory {
    function deploy(address owner, bytes32 salt) external returns (address) {
        return address(new ContractWallet{salt: salt}(owner));
    }

    function addressOf(address owner, bytes32 salt) external view returns (address) {
        bytes memory code = abi.encodePacked(type(ContractWallet).creationCode, abi.encode(owner));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, keccak256(code))))));
    }
}
