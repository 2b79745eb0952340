// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IRegistry {
    function resolver(bytes32 node) external view returns (address);
}

interface IBatchGateway {
    struct Request {
        address sender;
        string[] urls;
        bytes data;
    }

    function query(Request[] memory requests) external view returns (bool[] memory failures, bytes[] memory responses);
}

/**
 * The entry point today's clients call (viem >= 2.35, ethers >= 6.17), written for the tests from ENSIP-23 (the
 * Universal Resolver's functions and errors) and ENSIP-21 (offchain lookups of resolvers wrapped into one batch
 * gateway query). It finds a name's resolver in the registry (ENSIP-10: a wildcard resolver answers for names
 * below it), calls it, and when the resolver reverts OffchainLookup, reverts one of its own pointing at the batch
 * gateways; the client's callback brings the gateway's answer back, which the resolver then verifies.
 */
contract UniversalResolver {
    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    error ResolverNotFound(bytes name);
    error ResolverNotContract(bytes name, address resolver);
    error UnsupportedResolverProfile(bytes4 selector);
    error ResolverError(bytes errorData);
    error ReverseAddressMismatch(string primary, bytes primaryAddress);
    error HttpError(uint16 status, string message);
    error InvalidBatchGatewayResponse();

    /** What a step needs to go on once the batch gateway has answered. */
    struct Pending {
        address resolver;
        bool extended;
        uint8 step;
        bytes carry;
        string[] gateways;
    }

    struct Lookup {
        bytes name;
        uint256 offset;
        bytes32 node;
        address resolver;
        bool extended;
    }

    bytes4 private constant EXTENDED_RESOLVER = 0x9061b923;
    bytes4 private constant OFFCHAIN_LOOKUP = 0x556f1830;
    uint8 private constant STEP_RESOLVE = 0;
    uint8 private constant STEP_REVERSE_NAME = 1;
    uint8 private constant STEP_REVERSE_ADDRESS = 2;
    uint256 private constant COIN_ETH = 60;
    uint256 private constant COIN_DEFAULT = 0x80000000;

    IRegistry public immutable registry;
    string[] private batchGateways;

    constructor(IRegistry registry_, string[] memory batchGateways_) {
        registry = registry_;
        batchGateways = batchGateways_;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7;
    }

    // ---- discovery ----

    function requireResolver(bytes memory name) public view returns (Lookup memory lookup) {
        lookup = findLookup(name);
        if (lookup.resolver == address(0)) revert ResolverNotFound(name);
        if (lookup.resolver.code.length == 0) revert ResolverNotContract(name, lookup.resolver);
    }

    function findResolver(bytes memory name) external view returns (address, bytes32, uint256) {
        Lookup memory lookup = findLookup(name);
        return (lookup.resolver, lookup.node, lookup.offset);
    }

    function findLookup(bytes memory name) internal view returns (Lookup memory lookup) {
        lookup.name = name;
        lookup.node = namehash(name, 0);
        uint256 offset = 0;
        while (true) {
            address found = registry.resolver(namehash(name, offset));
            if (found != address(0)) {
                lookup.resolver = found;
                lookup.offset = offset;
                break;
            }
            uint8 length = uint8(name[offset]);
            if (length == 0) return lookup;
            offset += 1 + length;
        }
        lookup.extended = supportsInterface(lookup.resolver, EXTENDED_RESOLVER);
        // Only a wildcard resolver answers for the names below the one it is set on.
        if (lookup.offset > 0 && !lookup.extended) lookup.resolver = address(0);
    }

    // ---- forward resolution ----

    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory, address) {
        return resolveWithGateways(name, data, batchGateways);
    }

    function resolveWithGateways(
        bytes memory name,
        bytes memory data,
        string[] memory gateways
    ) public view returns (bytes memory, address) {
        answer(callResolver(requireResolver(name), data, gateways, STEP_RESOLVE, ""));
    }

    // ---- primary names (ENSIP-19) ----

    function reverse(bytes calldata lookupAddress, uint256 coinType) external view returns (string memory, address, address) {
        return reverseWithGateways(lookupAddress, coinType, batchGateways);
    }

    function reverseWithGateways(
        bytes memory lookupAddress,
        uint256 coinType,
        string[] memory gateways
    ) public view returns (string memory, address, address) {
        Lookup memory lookup = requireResolver(dnsEncode(reverseName(lookupAddress, coinType)));
        bytes memory call = abi.encodeWithSignature("name(bytes32)", lookup.node);
        answer(callResolver(lookup, call, gateways, STEP_REVERSE_NAME, abi.encode(lookupAddress, coinType)));
    }

    // ---- the steps ----

    /** Calls the resolver on chain; an OffchainLookup becomes a batch gateway lookup of this contract. */
    function callResolver(
        Lookup memory lookup,
        bytes memory call,
        string[] memory gateways,
        uint8 step,
        bytes memory carry
    ) internal view returns (bytes memory) {
        Pending memory pending = Pending(lookup.resolver, lookup.extended, step, carry, gateways);
        bytes memory request = lookup.extended ? abi.encodeWithSelector(EXTENDED_RESOLVER, lookup.name, call) : call;
        (bool ok, bytes memory returned) = lookup.resolver.staticcall(request);
        if (!ok) offchainOrFail(pending, returned);
        if (!lookup.extended && returned.length == 0) revert UnsupportedResolverProfile(bytes4(call));
        return next(pending, lookup.extended ? abi.decode(returned, (bytes)) : returned);
    }

    function batchCallback(bytes calldata response, bytes calldata extraData) external view returns (bytes memory) {
        (Pending memory pending, bytes4 callback, bytes memory resolverExtraData) = abi.decode(
            extraData,
            (Pending, bytes4, bytes)
        );
        (bool[] memory failures, bytes[] memory responses) = abi.decode(response, (bool[], bytes[]));
        if (failures.length != 1 || responses.length != 1) revert InvalidBatchGatewayResponse();
        if (failures[0]) raise(responses[0]);
        (bool ok, bytes memory returned) = pending.resolver.staticcall(
            abi.encodeWithSelector(callback, responses[0], resolverExtraData)
        );
        if (!ok) offchainOrFail(pending, returned);
        answer(next(pending, pending.extended ? abi.decode(returned, (bytes)) : returned));
    }

    function next(Pending memory pending, bytes memory result) internal view returns (bytes memory) {
        if (pending.step == STEP_RESOLVE) return abi.encode(result, pending.resolver);
        if (pending.step == STEP_REVERSE_NAME) {
            (bytes memory lookupAddress, uint256 coinType) = abi.decode(pending.carry, (bytes, uint256));
            string memory primary = result.length == 0 ? "" : abi.decode(result, (string));
            if (bytes(primary).length == 0) return abi.encode(primary, address(0), pending.resolver);
            Lookup memory forward = requireResolver(dnsEncode(primary));
            bytes memory call = abi.encodeWithSignature("addr(bytes32,uint256)", forward.node, coinType);
            bytes memory carry = abi.encode(primary, lookupAddress, pending.resolver);
            return callResolver(forward, call, pending.gateways, STEP_REVERSE_ADDRESS, carry);
        }
        (string memory name, bytes memory expected, address reverseResolver) = abi.decode(
            pending.carry,
            (string, bytes, address)
        );
        bytes memory actual = abi.decode(result, (bytes));
        if (keccak256(actual) != keccak256(expected)) revert ReverseAddressMismatch(name, actual);
        return abi.encode(name, pending.resolver, reverseResolver);
    }

    function offchainOrFail(Pending memory pending, bytes memory returned) internal view {
        if (returned.length < 4 || bytes4(returned) != OFFCHAIN_LOOKUP) revert ResolverError(returned);
        (address sender, string[] memory urls, bytes memory callData, bytes4 callback, bytes memory extraData) = abi
            .decode(withoutSelector(returned), (address, string[], bytes, bytes4, bytes));
        if (sender != pending.resolver) revert ResolverError(returned);
        IBatchGateway.Request[] memory requests = new IBatchGateway.Request[](1);
        requests[0] = IBatchGateway.Request(sender, urls, callData);
        revert OffchainLookup(
            address(this),
            pending.gateways,
            abi.encodeCall(IBatchGateway.query, (requests)),
            this.batchCallback.selector,
            abi.encode(pending, callback, extraData)
        );
    }

    // ---- helpers ----

    function answer(bytes memory encoded) private pure {
        assembly {
            return(add(encoded, 32), mload(encoded))
        }
    }

    function raise(bytes memory errorData) private pure {
        assembly {
            revert(add(errorData, 32), mload(errorData))
        }
    }

    function withoutSelector(bytes memory data) private pure returns (bytes memory out) {
        out = new bytes(data.length - 4);
        for (uint256 i = 0; i < out.length; i++) out[i] = data[i + 4];
    }

    function supportsInterface(address target, bytes4 interfaceId) private view returns (bool) {
        (bool ok, bytes memory returned) = target.staticcall{gas: 30000}(
            abi.encodeWithSelector(0x01ffc9a7, interfaceId)
        );
        return ok && returned.length >= 32 && abi.decode(returned, (bool));
    }

    function namehash(bytes memory name, uint256 offset) private pure returns (bytes32) {
        uint8 length = uint8(name[offset]);
        if (length == 0) return bytes32(0);
        bytes32 label;
        assembly {
            label := keccak256(add(add(name, 33), offset), length)
        }
        return keccak256(abi.encodePacked(namehash(name, offset + 1 + length), label));
    }

    function dnsEncode(string memory dotted) private pure returns (bytes memory out) {
        bytes memory name = bytes(dotted);
        out = new bytes(name.length + 2);
        uint256 start = 0;
        for (uint256 i = 0; i <= name.length; i++) {
            if (i == name.length || name[i] == ".") {
                out[start] = bytes1(uint8(i - start));
                for (uint256 j = start; j < i; j++) out[j + 1] = name[j];
                start = i + 1;
            }
        }
        out[name.length + 1] = 0;
    }

    /** `<address hex>.addr.reverse` for Ethereum, `<address hex>.default.reverse`, else `<coin type hex>.reverse`. */
    function reverseName(bytes memory lookupAddress, uint256 coinType) private pure returns (string memory) {
        string memory namespace = coinType == COIN_ETH ? "addr" : coinType == COIN_DEFAULT
            ? "default"
            : toHex(abi.encodePacked(uint32(coinType)));
        return string.concat(toHex(lookupAddress), ".", namespace, ".reverse");
    }

    function toHex(bytes memory data) private pure returns (string memory) {
        bytes memory digits = "0123456789abcdef";
        bytes memory out = new bytes(data.length * 2);
        for (uint256 i = 0; i < data.length; i++) {
            out[2 * i] = digits[uint8(data[i]) >> 4];
            out[2 * i + 1] = digits[uint8(data[i]) & 15];
        }
        return string(out);
    }
}
