// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The part of the ENS registry that resolution reads (resolver, owner), with ENS's rule for writing it: only
/// a node's owner sets its resolver or hands out its subnodes. The deployer owns the root.
contract ENSRegistry {
    struct Record {
        address owner;
        address resolver;
    }

    mapping(bytes32 => Record) private records;

    event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner);
    event NewResolver(bytes32 indexed node, address resolver);

    error Unauthorised(bytes32 node, address sender);

    constructor() {
        records[bytes32(0)].owner = msg.sender;
    }

    modifier authorised(bytes32 node) {
        if (records[node].owner != msg.sender) revert Unauthorised(node, msg.sender);
        _;
    }

    function setSubnodeOwner(bytes32 node, bytes32 label, address owner_) external authorised(node) returns (bytes32) {
        bytes32 subnode = keccak256(abi.encodePacked(node, label));
        records[subnode].owner = owner_;
        emit NewOwner(node, label, owner_);
        return subnode;
    }

    function setResolver(bytes32 node, address resolver_) external authorised(node) {
        records[node].resolver = resolver_;
        emit NewResolver(node, resolver_);
    }

    function owner(bytes32 node) external view returns (address) {
        return records[node].owner;
    }

    function resolver(bytes32 node) external view returns (address) {
        return records[node].resolver;
    }
}
