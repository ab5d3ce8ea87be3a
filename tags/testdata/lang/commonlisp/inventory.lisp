;;;; inventory.lisp -- stock counts per SKU.

(defpackage :shop.inventory
  (:use :cl)
  (:export #:make-stock #:restock #:total-value))

(in-package :shop.inventory)

(defparameter *max-count* 1000
  "The most items one SKU may hold.")

(defstruct item sku (count 0) (cents 0))

(defclass stock ()
  ((items :initform (make-hash-table :test #'equal) :accessor stock-items)))

(defgeneric restock (stock sku count)
  (:documentation "Adds COUNT items of SKU."))

(defmethod restock ((s stock) sku count)
  (let ((it (gethash sku (stock-items s))))
    (incf (item-count it) (min count *max-count*))))

(defun total-value (s)
  "Sums the value of every item; (defun fake) in a string is text."
  (loop for it being the hash-values of (stock-items s)
        sum (* (item-count it) (item-cents it))))

(defmacro with-stock ((var) &body body)
  `(let ((,var (make-instance 'stock))) ,@body))

(define-condition out-of-stock (error) ((sku :initarg :sku)))
(defconstant +shelves+ 40)
(deftype quantity () '(integer 0 1000))
