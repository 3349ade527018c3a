// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Emitter: logs with 0 to 4 topics and data, for eth_getLogs filter tests.
/// @notice Topics per event: Raw 0 (anonymous LOG0), NoIndexed 1, OneIndexed 2, TwoIndexed 3,
/// ThreeIndexed 4, FourIndexed 4 (anonymous, so all four are indexed arguments).
/// @dev Storage layout (checked against solc's storageLayout by test/contracts/artifacts.test.ts):
///   slot 0            emitted   uint256 (events emitted so far)
contract Emitter {
    uint256 public emitted;

    event Raw(bytes data) anonymous;
    event NoIndexed(uint256 value, address sender);
    event OneIndexed(uint256 indexed id, uint256 value);
    event TwoIndexed(address indexed from, uint256 indexed id, uint256 value);
    event ThreeIndexed(address indexed from, address indexed to, uint256 indexed id, bytes data);
    event FourIndexed(uint256 indexed a, uint256 indexed b, uint256 indexed c, uint256 indexed d) anonymous;

    function emitRaw(bytes calldata data) external {
        emitted += 1;
        emit Raw(data);
    }

    function emitNoIndexed(uint256 value) external {
        emitted += 1;
        emit NoIndexed(value, msg.sender);
    }

    function emitOneIndexed(uint256 id, uint256 value) external {
        emitted += 1;
        emit OneIndexed(id, value);
    }

    function emitTwoIndexed(uint256 id, uint256 value) external {
        emitted += 1;
        emit TwoIndexed(msg.sender, id, value);
    }

    function emitThreeIndexed(address to, uint256 id, bytes calldata data) external {
        emitted += 1;
        emit ThreeIndexed(msg.sender, to, id, data);
    }

    function emitFourIndexed(uint256 a, uint256 b, uint256 c, uint256 d) external {
        emitted += 1;
        emit FourIndexed(a, b, c, d);
    }

    /// Emits `n` events cycling through the six kinds; event i uses id/value i.
    function emitMany(uint256 n) external {
        for (uint256 i = 0; i < n; i++) {
            uint256 kind = i % 6;
            if (kind == 0) emit Raw(abi.encode(i));
            else if (kind == 1) emit NoIndexed(i, msg.sender);
            else if (kind == 2) emit OneIndexed(i, i);
            else if (kind == 3) emit TwoIndexed(msg.sender, i, i);
            else if (kind == 4) emit ThreeIndexed(msg.sender, address(this), i, abi.encode(i));
            else emit FourIndexed(i, i + 1, i + 2, i + 3);
        }
        emitted += n;
    }
}
