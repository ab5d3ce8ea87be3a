//! Stock keeping for one warehouse.

use std::collections::HashMap;
use std::fmt;

use crate::catalog::{Item, pricing::PriceList, Sku as ItemCode};

pub mod audit;

pub const MAX_SHELVES: usize = 40;
static DEFAULT_NAME: &str = "main";

pub type Quantity = u32;

macro_rules! shelf_key {
    ($aisle:expr, $slot:expr) => {
        format!("{}-{}", $aisle, $slot)
    };
}

#[derive(Debug, Clone)]
pub struct Warehouse<T> {
    pub name: String,
    stock: HashMap<ItemCode, Quantity>,
    extra: Vec<T>,
}

pub enum Movement {
    Received(Quantity),
    Shipped { qty: Quantity, to: String },
    Lost,
}

pub trait Ledger {
    fn record(&mut self, item: &Item, movement: Movement);
    fn balance(&self, item: &Item) -> Quantity {
        0
    }
}

impl<T: Clone> Warehouse<T> {
    pub fn new(name: &str) -> Self {
        Warehouse { name: name.to_string(), stock: HashMap::new(), extra: Vec::new() }
    }

    pub fn value(&self, prices: &PriceList) -> f64 {
        self.stock
            .iter()
            .map(|(code, qty)| prices.price_of(code) * f64::from(*qty))
            .sum()
    }
}

impl<T> Ledger for Warehouse<T> {
    fn record(&mut self, item: &Item, movement: Movement) {
        let entry = self.stock.entry(item.code()).or_insert(0);
        match movement {
            Movement::Received(n) => *entry += n,
            Movement::Shipped { qty, .. } => *entry = entry.saturating_sub(qty),
            Movement::Lost => audit::report_loss(item, shelf_key!(1, 2)),
        }
    }
}

impl<T> fmt::Display for Warehouse<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({} items)", self.name, self.stock.len())
    }
}

pub fn total_units<L: Ledger>(ledger: &L, items: &[Item]) -> Quantity {
    items.iter().map(|i| ledger.balance(i)).sum::<Quantity>()
}
