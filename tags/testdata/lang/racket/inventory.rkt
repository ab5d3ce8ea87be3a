#lang racket/base
;; Stock counts per SKU.
(require racket/list "pricing.rkt")
(provide (struct-out item) restock total-value)

(struct item (sku count cents) #:transparent)

(define max-count 1000)

(define (restock items sku count)
  (for/list ([it (in-list items)])
    (if (equal? (item-sku it) sku)
        (struct-copy item it [count (min max-count (+ count (item-count it)))])
        it)))

(define (total-value items)
  (format-cents
   (for/sum ([it (in-list items)])
     (* (item-count it) (item-cents it)))))

(define-syntax-rule (with-items (name lst) body ...)
  (let ([name lst]) body ...))

(define stock%
  (class object%
    (super-new)
    (define/public (size) (length (remove-duplicates '(1 2))))))
