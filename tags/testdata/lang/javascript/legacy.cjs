'use strict';

const { promisify } = require('util');
const { readFile: read } = require('fs');
const db = require('./db');

function Inventory(store) {
  this.store = store;
}

Inventory.prototype.count = function (sku) {
  return db.countItems(this.store, sku);
};

exports.loadInventory = async function (path) {
  const raw = await promisify(read)(path, 'utf8');
  return new Inventory(JSON.parse(raw));
};

module.exports.defaultStore = () => new Inventory('main');

var cache = null;
