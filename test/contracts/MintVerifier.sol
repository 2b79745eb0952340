// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// The mint context as the Namespace L1 MintController takes it: its ABI order, with expiry as uint64
/// (the public mint SDK encodes the service's content against exactly this struct).
struct MintContext {
    address owner;
    string label;
    bytes32 parentNode;
    uint256 price;
    uint256 fee;
    address paymentReceiver;
    uint64 expiry;
    uint256 signatureExpiry;
    address verifiedMinter;
    uint32 fuses;
}

/// Checks mint parameters the way a mint controller does before it mints: an EIP-712 signature over
/// MintContext in the domain ("namespace", "1", chain id, this contract) by a registered verifier, not
/// expired, sent by the verified minter, with enough value for price plus fee. It mints nothing.
contract MintVerifier is EIP712 {
    bytes32 public constant MINT_CONTEXT_TYPEHASH =
        keccak256(
            "MintContext(string label,bytes32 parentNode,address owner,uint256 price,uint256 fee,address paymentReceiver,uint256 expiry,uint256 signatureExpiry,address verifiedMinter,uint32 fuses)"
        );

    mapping(address => bool) public verifiers;

    event MintVerified(bytes32 indexed parentNode, string label, address owner, address signer, uint256 paid);

    error SignatureExpired(uint256 signatureExpiry, uint256 timestamp);
    error NotVerifiedMinter(address verifiedMinter, address sender);
    error NotVerifier(address recovered);
    error InsufficientValue(uint256 required, uint256 sent);

    constructor(address[] memory initialVerifiers) EIP712("namespace", "1") {
        for (uint256 i = 0; i < initialVerifiers.length; i++) {
            verifiers[initialVerifiers[i]] = true;
        }
    }

    /// The MintController's mint signature; resolverData and extraData are accepted and ignored.
    function mint(
        MintContext calldata ctx,
        bytes calldata sig,
        bytes[] calldata resolverData,
        bytes calldata extraData
    ) external payable {
        resolverData;
        extraData;
        if (ctx.signatureExpiry <= block.timestamp) revert SignatureExpired(ctx.signatureExpiry, block.timestamp);
        if (ctx.verifiedMinter != msg.sender) revert NotVerifiedMinter(ctx.verifiedMinter, msg.sender);
        address signer = ECDSA.recover(digest(ctx), sig);
        if (!verifiers[signer]) revert NotVerifier(signer);
        if (msg.value < ctx.price + ctx.fee) revert InsufficientValue(ctx.price + ctx.fee, msg.value);
        emit MintVerified(ctx.parentNode, ctx.label, ctx.owner, signer, msg.value);
    }

    function digest(MintContext calldata ctx) public view returns (bytes32) {
        return
            _hashTypedDataV4(
                keccak256(
                    abi.encode(
                        MINT_CONTEXT_TYPEHASH,
                        keccak256(bytes(ctx.label)),
                        ctx.parentNode,
                        ctx.owner,
                        ctx.price,
                        ctx.fee,
                        ctx.paymentReceiver,
                        ctx.expiry,
                        ctx.signatureExpiry,
                        ctx.verifiedMinter,
                        ctx.fuses
                    )
                )
            );
    }
}
