// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title SimpleStore: store and read a uint, with an event. Also built for homestead
/// (artifact SimpleStoreHomestead) for the pre-Byzantium seed: its success paths use no opcode
/// newer than homestead (no RETURNDATA*, SHL/SHR, CHAINID, PUSH0); its failure paths end in 0xfd,
/// which homestead treats as an invalid opcode (the call fails and uses all its gas).
/// @dev Storage layout (checked against solc's storageLayout by test/contracts/artifacts.test.ts):
///   slot 0            value     uint256
contract SimpleStore {
    uint256 public value;

    event ValueChanged(address indexed by, uint256 oldValue, uint256 newValue);

    function set(uint256 newValue) external {
        emit ValueChanged(msg.sender, value, newValue);
        value = newValue;
    }

    function get() external view returns (uint256) {
        return value;
    }
}
