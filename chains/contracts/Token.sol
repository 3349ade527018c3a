// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Token: a plain ERC-20 for the shipped chains (Transfer events, a balances mapping).
/// @notice The deployer receives 1,000,000 DVG at creation and may mint more with `mint`.
/// @dev Storage layout (checked against solc's storageLayout by test/contracts/artifacts.test.ts):
///   slot 0            balances     mapping(address => uint256)
///   slot 1            allowances   mapping(address => mapping(address => uint256))
///   slot 2            totalSupply  uint256
/// name, symbol, decimals are constants and `minter` is immutable: they live in the code, not in storage.
/// Deploy it with a creation transaction, not as genesis alloc code: deployedBytecode holds zeros where the
/// immutable `minter` goes, and the initial mint happens in the constructor.
/// eth_getStorageAt positions (SPEC 4.3):
///   balances[holder]           = keccak256(pad32(holder) ++ pad32(0))
///   allowances[owner][spender] = keccak256(pad32(spender) ++ keccak256(pad32(owner) ++ pad32(1)))
///   totalSupply                = 0x2
contract Token {
    mapping(address => uint256) private balances;
    mapping(address => mapping(address => uint256)) private allowances;
    uint256 public totalSupply;

    string public constant name = "Devgate Token";
    string public constant symbol = "DVG";
    uint8 public constant decimals = 18;
    uint256 public constant INITIAL_SUPPLY = 1_000_000 ether;

    address public immutable minter;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance(uint256 available, uint256 required);
    error InsufficientAllowance(uint256 available, uint256 required);
    error NotMinter(address caller);

    constructor() {
        minter = msg.sender;
        _mint(msg.sender, INITIAL_SUPPLY);
    }

    function balanceOf(address holder) external view returns (uint256) {
        return balances[holder];
    }

    function allowance(address owner, address spender) external view returns (uint256) {
        return allowances[owner][spender];
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowances[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowances[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert InsufficientAllowance(allowed, value);
            allowances[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    /// @notice Creates `value` new tokens for `to`; only the deployer may call it.
    function mint(address to, uint256 value) external {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        _mint(to, value);
    }

    function _transfer(address from, address to, uint256 value) private {
        uint256 available = balances[from];
        if (available < value) revert InsufficientBalance(available, value);
        unchecked {
            balances[from] = available - value;
        }
        balances[to] += value;
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) private {
        totalSupply += value;
        balances[to] += value;
        emit Transfer(address(0), to, value);
    }
}
