// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Reverter: every way a call can fail, one that succeeds, one that burns gas, and the call context.
/// @notice For eth_call / eth_estimateGas error tests and seeded failing transactions.
/// @dev Storage layout (checked against solc's storageLayout by test/contracts/artifacts.test.ts):
///   slot 0            counter      uint256
contract Reverter {
    uint256 public counter;

    /// The custom error of `revertWithCustomError`.
    error Unauthorized(address caller, uint256 code);

    event Incremented(address indexed by, uint256 counter);

    /// Reverts with Error(string) "Reverter: always reverts".
    function revertWithReason() external pure {
        require(false, "Reverter: always reverts");
    }

    /// Reverts with Error(string) carrying the given message.
    function revertWithMessage(string calldata message) external pure {
        revert(message);
    }

    /// Reverts with the custom error Unauthorized(msg.sender, code).
    function revertWithCustomError(uint256 code) external view {
        revert Unauthorized(msg.sender, code);
    }

    /// Reverts with empty return data.
    function revertWithoutData() external pure {
        revert();
    }

    /// Panic(0x01): a failed assert.
    function panicAssert() external pure {
        assert(false);
    }

    /// Panic(0x12): division by zero when `divisor` is 0.
    function panicDivisionByZero(uint256 divisor) external pure returns (uint256) {
        return 1 / divisor;
    }

    /// Panic(0x32): reads index `index` of a 3-element array (out of bounds for index >= 3).
    function panicOutOfBounds(uint256 index) external pure returns (uint256) {
        uint256[] memory items = new uint256[](3);
        return items[index];
    }

    /// Panic(0x11): checked arithmetic overflow when `addend` > 0.
    function panicOverflow(uint256 addend) external pure returns (uint256) {
        return type(uint256).max + addend;
    }

    /// Succeeds and returns 42.
    function succeed() external pure returns (uint256) {
        return 42;
    }

    /// Succeeds and changes state (a transaction that does not revert).
    function increment() external returns (uint256) {
        counter += 1;
        emit Incremented(msg.sender, counter);
        return counter;
    }

    /// Burns gas: `rounds` keccak256 rounds (about 100 gas each); returns the final hash.
    function burnGas(uint256 rounds) external pure returns (bytes32 h) {
        for (uint256 i = 0; i < rounds; i++) {
            h = keccak256(abi.encode(h, i));
        }
    }

    /// Never returns: loops until the gas runs out (for gas-cap tests).
    function burnAllGas() external pure {
        uint256 i;
        while (true) {
            unchecked {
                i++;
            }
        }
    }

    /// The block and message context the call ran in (parentHash is zero at block 0).
    function context()
        external
        view
        returns (
            uint256 number,
            uint256 timestamp,
            bytes32 parentHash,
            uint256 baseFee,
            uint256 chainId,
            address sender,
            address origin,
            address coinbase,
            uint256 gasLimit,
            uint256 gasPrice
        )
    {
        return (
            block.number,
            block.timestamp,
            block.number == 0 ? bytes32(0) : blockhash(block.number - 1),
            block.basefee,
            block.chainid,
            msg.sender,
            tx.origin,
            block.coinbase,
            block.gaslimit,
            tx.gasprice
        );
    }
}
