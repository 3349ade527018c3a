// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title StorageLayout: plain, packed, mapping, nested mapping and dynamic array slots.
/// @notice Shows how eth_getStorageAt positions are computed (SPEC 4.3). The constructor sets every
/// variable; the setters change them.
/// @dev Storage layout (checked against solc's storageLayout by test/contracts/artifacts.test.ts):
///   slot 0            a         uint256
///   slot 1            owner     address (low 20 bytes of the word)
///   slot 2 offset 0   x         uint128 (low 16 bytes of the word)
///   slot 2 offset 16  y         uint128 (high 16 bytes of the same word)
///   slot 3            balances  mapping(address => uint256)
///   slot 4            grid      mapping(uint256 => mapping(uint256 => uint256))
///   slot 5            items     uint256[]
/// Positions:
///   a                = 0x0,  owner = 0x1
///   x, y             = 0x2, word = (y << 128) | x
///   balances[k]      = keccak256(pad32(k) ++ pad32(3))
///   grid[i][j]       = keccak256(pad32(j) ++ keccak256(pad32(i) ++ pad32(4)))
///   items.length     = 0x5
///   items[i]         = uint256(keccak256(pad32(5))) + i
/// Constructor values: a = 42, owner = deployer, x = 1, y = 2, balances[deployer] = 1000,
/// grid[1][2] = 3, items = [10, 20, 30].
contract StorageLayout {
    uint256 public a;
    address public owner;
    uint128 public x;
    uint128 public y;
    mapping(address => uint256) public balances;
    mapping(uint256 => mapping(uint256 => uint256)) public grid;
    uint256[] public items;

    constructor() {
        a = 42;
        owner = msg.sender;
        x = 1;
        y = 2;
        balances[msg.sender] = 1000;
        grid[1][2] = 3;
        items.push(10);
        items.push(20);
        items.push(30);
    }

    function setA(uint256 value) external {
        a = value;
    }

    function setOwner(address value) external {
        owner = value;
    }

    function setXY(uint128 newX, uint128 newY) external {
        x = newX;
        y = newY;
    }

    function setBalance(address holder, uint256 value) external {
        balances[holder] = value;
    }

    function setGrid(uint256 i, uint256 j, uint256 value) external {
        grid[i][j] = value;
    }

    function pushItem(uint256 value) external {
        items.push(value);
    }

    function setItem(uint256 index, uint256 value) external {
        items[index] = value;
    }

    function itemsLength() external view returns (uint256) {
        return items.length;
    }
}
