// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IRegistry {
    function setResolver(bytes32 node, address resolver) external;
}

/// A stand-in for ENS's Name Wrapper, the part the resolver tools use: a wrapped name's owner, fuses and expiry
/// (getData, ownerOf), and setResolver for its owner unless the CANNOT_SET_RESOLVER fuse (8) is burnt. The
/// wrapper owns the name in the registry, as the real one does; `wrap` records a name handed to it; operator
/// approvals as the real one's isApprovedForAll.
contract NameWrapper {
    uint32 public constant CANNOT_SET_RESOLVER = 8;

    struct Data {
        address owner;
        uint32 fuses;
        uint64 expiry;
    }

    IRegistry public immutable registry;
    mapping(uint256 => Data) private data;
    mapping(address => mapping(address => bool)) private operators;

    error Unauthorised(bytes32 node, address sender);
    error OperationProhibited(bytes32 node);

    constructor(IRegistry registry_) {
        registry = registry_;
    }

    function wrap(bytes32 node, address owner, uint32 fuses, uint64 expiry) external {
        data[uint256(node)] = Data(owner, fuses, expiry);
    }

    function getData(uint256 id) external view returns (address, uint32, uint64) {
        Data memory d = data[id];
        return (d.owner, d.fuses, d.expiry);
    }

    function ownerOf(uint256 id) external view returns (address) {
        return data[id].owner;
    }

    /// The Name Wrapper's own ERC-1155 operator approvals (the developer portal's `operator` role of a wrapped name).
    function setApprovalForAll(address operator, bool approved) external {
        operators[msg.sender][operator] = approved;
    }

    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return operators[owner][operator];
    }

    function setResolver(bytes32 node, address resolver) external {
        Data memory d = data[uint256(node)];
        if (d.owner != msg.sender) revert Unauthorised(node, msg.sender);
        if (d.fuses & CANNOT_SET_RESOLVER != 0) revert OperationProhibited(node);
        registry.setResolver(node, resolver);
    }
}
