// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IENS {
    function setSubnodeOwner(bytes32 node, bytes32 label, address owner) external returns (bytes32);
}

/// A stand-in for ENS's BaseRegistrarImplementation, the part the portal reads: `.eth` second-level names as
/// tokens whose id is the label's hash, with an expiry (`nameExpires`), `ownerOf` refusing once expired as the
/// real one does, and the 90-day GRACE_PERIOD. `register` takes an absolute expiry so tests can make expired names.
contract BaseRegistrar {
    uint256 public constant GRACE_PERIOD = 90 days;

    IENS public immutable ens;
    bytes32 public immutable baseNode;
    address public immutable controller;
    mapping(uint256 => uint256) private expiries;
    mapping(uint256 => address) private owners;

    error Expired(uint256 id);
    error NotOwner(uint256 id, address sender);

    constructor(IENS ens_, bytes32 baseNode_) {
        ens = ens_;
        baseNode = baseNode_;
        controller = msg.sender;
    }

    /// Registers `id` to `owner` until `expires`, and makes `owner` its registry owner (the manager).
    function register(uint256 id, address owner, uint256 expires) external {
        require(msg.sender == controller, "controller only");
        expiries[id] = expires;
        owners[id] = owner;
        ens.setSubnodeOwner(baseNode, bytes32(id), owner);
    }

    function nameExpires(uint256 id) external view returns (uint256) {
        return expiries[id];
    }

    function ownerOf(uint256 id) external view returns (address) {
        if (expiries[id] <= block.timestamp) revert Expired(id);
        return owners[id];
    }

    /// The registrant hands the name to another registrant (the registry owner stays as it was, as on ENS).
    function transferFrom(address from, address to, uint256 id) external {
        if (owners[id] != msg.sender || from != msg.sender) revert NotOwner(id, msg.sender);
        owners[id] = to;
    }

    /// The registrant sets the registry owner (the manager) of its name.
    function reclaim(uint256 id, address owner) external {
        if (owners[id] != msg.sender || expiries[id] <= block.timestamp) revert NotOwner(id, msg.sender);
        ens.setSubnodeOwner(baseNode, bytes32(id), owner);
    }
}
