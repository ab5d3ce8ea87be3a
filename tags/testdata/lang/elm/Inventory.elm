module Inventory exposing (Item, Msg(..), add, total)

import Dict exposing (Dict)
import Pricing exposing (formatCents)


type alias Item =
    { sku : String
    , cents : Int
    }


type Msg
    = Added Item
    | Removed String


add : Item -> Dict String Item -> Dict String Item
add item stock =
    Dict.insert item.sku item stock


total : Dict String Item -> String
total stock =
    Dict.values stock
        |> List.map .cents
        |> List.sum
        |> formatCents
