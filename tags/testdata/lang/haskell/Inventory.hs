{-# LANGUAGE OverloadedStrings #-}
-- | Stock keeping for one warehouse.
module Shop.Inventory
  ( Warehouse (..)
  , Movement (..)
  , receive
  , totalValue
  ) where

import qualified Data.Map.Strict as Map
import Data.Text (Text, pack)
import Shop.Catalog (Item (..), Sku)

type Quantity = Int

newtype PriceList = PriceList (Map.Map Sku Double)

data Movement
  = Received Sku Quantity
  | Shipped { movedSku :: Sku, movedQty :: Quantity }
  deriving (Show, Eq)

data Warehouse = Warehouse
  { whName  :: Text
  , whStock :: Map.Map Sku Quantity
  }

class Ledger a where
  record :: a -> Movement -> a
  balance :: a -> Sku -> Quantity

instance Ledger Warehouse where
  record w (Received sku n) = receive sku n w
  record w (Shipped sku n) = receive sku (negate n) w
  balance w sku = Map.findWithDefault 0 sku (whStock w)

instance Show Warehouse where
  show w = "Warehouse " <> show (whName w)

maxShelves :: Int
maxShelves = 40

emptyWarehouse :: Text -> Warehouse
emptyWarehouse name = Warehouse { whName = name, whStock = Map.empty }

receive :: Sku -> Quantity -> Warehouse -> Warehouse
receive sku n w = w { whStock = Map.insertWith (+) sku (clamp n) (whStock w) }
  where
    clamp = max 0 . min 1000

totalValue :: PriceList -> Warehouse -> Double
totalValue (PriceList prices) w =
  sum [ fromIntegral q * price | (sku, q) <- Map.toList (whStock w)
                               , Just price <- [Map.lookup sku prices] ]

defaultName :: Text
defaultName = pack "main"

describe (Received sku n) = pack (show n) <> " in"
describe (Shipped sku n) = pack (show n) <> " out"
