// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./Ownable.sol";

interface IPriced {
    function price(uint256 sku) external view returns (uint256);
}

/// Keeps a count of items per SKU.
contract Inventory is Ownable, IPriced {
    struct Item { uint256 count; uint256 cents; }
    enum State { Open, Closed }
    event Restocked(uint256 indexed sku, uint256 count);
    error OutOfStock(uint256 sku);

    mapping(uint256 => Item) private items;
    uint256 public constant MAX_COUNT = 1000;

    modifier inStock(uint256 sku) {
        if (items[sku].count == 0) revert OutOfStock(sku);
        _;
    }

    function restock(uint256 sku, uint256 count) external onlyOwner {
        uint256 total = items[sku].count + count;
        items[sku].count = Math.min(total, MAX_COUNT);
        emit Restocked(sku, count);
    }
}

library Math {
    function min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b;
    }
}

type Price is uint256;

contract Shop {
    address public immutable owner;

    constructor() {
        owner = msg.sender;
    }
}
