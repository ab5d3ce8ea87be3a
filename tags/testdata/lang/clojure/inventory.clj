(ns shop.inventory
  "Stock counts per SKU."
  (:require [clojure.string :as str]
            [shop.pricing :refer [format-cents]]))

(def max-count 1000)

(defrecord Item [sku count cents])

(defprotocol Priced
  (price [this] "Price in cents."))

(extend-protocol Priced
  Item
  (price [item] (* (:count item) (:cents item))))

(defn restock
  "Adds count items of sku, capped at max-count."
  [stock sku n]
  (update stock sku (fnil #(min max-count (+ % n)) 0)))

(defn- normalize [sku]
  (str/upper-case sku))

(defmacro with-stock [[sym init] & body]
  `(let [~sym ~init] ~@body))

(defn total-value [items]
  (format-cents (reduce + (map price items))))

(defmulti describe :kind)
(defmethod describe :item [x] (str "item " (:sku x)))

(definterface IStock (restockAll []))
(deftype Shelf [items])
(defstruct slot :sku :count)
