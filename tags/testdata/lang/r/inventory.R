# Stock keeping for one warehouse.

library(dplyr)
require("jsonlite")
suppressPackageStartupMessages(library(R6))

MAX_SHELVES <- 40
default_name = "main"

clamp <- function(x, low = 0, high = 1000) {
  pmax(low, pmin(x, high))
}

stock_value <- function(stock, prices) {
  stock %>%
    inner_join(prices, by = "sku") %>%
    mutate(value = qty * price) %>%
    summarise(total = sum(value)) %>%
    pull(total)
}

Warehouse <- R6Class("Warehouse",
  public = list(
    name = NULL,
    stock = NULL,
    initialize = function(name = default_name) {
      self$name <- name
      self$stock <- data.frame(sku = character(), qty = numeric())
    },
    receive = function(sku, qty) {
      self$stock <- rbind(self$stock, data.frame(sku = sku, qty = clamp(qty)))
      private$log("receive", sku)
      invisible(self)
    }
  ),
  private = list(
    log = function(event, sku) message(sprintf("%s %s", event, sku))
  )
)

Account <- setRefClass("Account",
  fields = list(balance = "numeric"),
  methods = list(
    deposit = function(x) {
      balance <<- balance + x
      invisible(.self)
    }
  )
)

setClass("Shelf", representation(id = "numeric", items = "list"))

"report" <- function(w) {
  cat(jsonlite::toJSON(w$stock), "\n")
}
