;;; shop-inventory.el --- Track stock counts  -*- lexical-binding: t -*-

(require 'shop-pricing)

(defgroup shop-inventory nil
  "Stock counts per SKU."
  :group 'tools)

(defcustom shop-inventory-max-count 1000
  "The most items one SKU may hold."
  :type 'integer)

(defvar shop-inventory--table (make-hash-table :test #'equal)
  "Counts by SKU.")

(cl-defstruct shop-item sku count cents)

(defun shop-inventory-restock (sku count)
  "Add COUNT items of SKU."
  (puthash sku (min shop-inventory-max-count
                    (+ count (gethash sku shop-inventory--table 0)))
           shop-inventory--table))

(defmacro shop-inventory-with-table (&rest body)
  `(let ((table shop-inventory--table)) ,@body))

(defun shop-inventory-value ()
  (shop-pricing-sum (hash-table-values shop-inventory--table)))

(defconst shop-inventory-version "1.0")
(defface shop-inventory-low '((t :foreground "red")) "Low stock.")
(defclass shop-shelf () ((items :initform nil)))
(cl-defmethod shop-shelf-size ((s shop-shelf)) (length (oref s items)))
(define-minor-mode shop-inventory-mode "Track stock." :lighter " Stock")

(provide 'shop-inventory)
