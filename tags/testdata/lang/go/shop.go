package shop

import (
	"fmt"
	"net/http"
	str "strings"
)

// Cart holds what a customer is buying.
type Cart struct {
	Items []Item
	Owner http.Header
}

// Pricer prices items.
type Pricer interface {
	Price(id string) int
}

type ID = string
type Count int

const MaxItems, MinItems = 10, 1

var (
	Default = Cart{}
	_       = 3
)

var Registry = New[int]()

func New[T any]() *Cart {
	fmt.Println(helper(&Cart{}))
	c := &http.Client{}
	return c.Do()
}

func (c *Cart) Total(p Pricer) int {
	x := func() {
		type local struct{}
	}
	_ = x
	return p.Price("a")
}

func Build() map[string]Cart {
	return map[string]Cart{"a": {}}
}

// Upper shouts its name.
func Upper(name string) string { return str.ToUpper(name) }

func Open() *Cart { return &Cart{} }

func Checkout(p Pricer) int {
	o := Open()
	r := str.NewReader("x")
	_ = r
	o.Owner.Get("a")
	new(Cart).Total(p)
	Open().Total(p)
	any(p).(Pricer).Price("b")
	return o.Total(p)
}

func Serve(c *Cart) func(p Pricer) int {
	return func(p Pricer) int {
		return c.Total(p)
	}
}

func Restock() (*Cart, error) {
	c, err := Restock()
	n := new(Cart)
	_ = n
	return c, err
}

func Assert(v any) {
	if c, ok := v.(*Cart); ok {
		_ = c
	}
	if f, ok := v.(interface{ Flush() }); ok {
		_ = f
	}
}

type Store interface {
	Find(id string) (*Cart, error)
}

func (c *Cart) Owner() http.Header { return nil }

func Field(c *Cart) {
	items := c.Items
	_ = items
}

func Chain(c *Cart) {
	c.Owner.x.Get("a")
}

func Bound(c *Cart) {
	h, err := c.Owner.Get("a")
	items := NewCart().Items
	_, _, _ = h, err, items
}
